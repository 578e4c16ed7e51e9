import UIKit

final class ProgressRingView: UIView {
    var progress: CGFloat = 0 {
        didSet { setNeedsDisplay() }
    }
    var lineWidth: CGFloat = 8

    override func draw(_ rect: CGRect) {
        let center = bounds.center
        let radius = min(bounds.width, bounds.height) / 2 - lineWidth
        let path = UIBezierPath(arcCenter: center,
                                radius: radius,
                                startAngle: -.pi / 2,
                                endAngle: -.pi / 2 + 2 * .pi * progress,
                                clockwise: true)
        path.lineWidth = lineWidth
        path.lineCapStyle = .round
        UIColor.systemTeal.setStroke()
        path.stroke()
    }
}
