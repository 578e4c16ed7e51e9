import UIKit

final class RingView: UIView {
    var progress: CGFloat = 0.25 {
        didSet { setNeedsDisplay() }
    }

    override var intrinsicContentSize: CGSize {
        CGSize(width: 64, height: 64)
    }

    override func draw(_ rect: CGRect) {
        let inset = rect.insetBy(dx: 4, dy: 4)
        let center = CGPoint(x: inset.midX, y: inset.midY)
        let path = UIBezierPath(
            arcCenter: center,
            radius: min(inset.width, inset.height) / 2,
            startAngle: -.pi / 2,
            endAngle: -.pi / 2 + 2 * .pi * progress,
            clockwise: true
        )
        path.lineWidth = 6
        path.lineCapStyle = .round
        UIColor.systemTeal.setStroke()
        path.stroke()
        layoutMargins = UIEdgeInsets(top: 4, left: 4, bottom: 4, right: 4)
    }
}
