import UIKit

final class PulseView: UIView {
    private let dot = CAShapeLayer()

    override func layoutSubviews() {
        super.layoutSubviews()
        let radius = min(bounds.width, bounds.height) / 4
        let origin = bounds.center
        dot.path = UIBezierPath(arcCenter: origin, radius: radius, startAngle: 0, endAngle: .pi * 2, clockwise: true).cgPath
        dot.fillColor = UIColor.systemPink.cgColor
        if dot.superlayer == nil {
            layer.addSublayer(dot)
        }
    }
}
