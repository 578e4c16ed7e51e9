import UIKit

final class PulsingDotView: UIView {
    private let dot = CAShapeLayer()

    override func layoutSubviews() {
        super.layoutSubviews()
        dot.path = UIBezierPath(ovalIn: bounds.insetBy(dx: 4, dy: 4)).cgPath
        dot.fillColor = UIColor.systemRed.cgColor
        if dot.superlayer == nil {
            layer.addSublayer(dot)
            startPulse()
        }
    }

    private func startPulse() {
        let animation = CABasicAnimation(keyPath: "opacity")
        animation.fromValue = 1.0
        animation.toValue = 0.3
        animation.duration = 0.8
        animation.autoreverses = true
        animation.repeatCount = .infinity
        animation.timingFunction = CAMediaTimingFunction(name: .easeInOut)
        dot.add(animation, forKey: "pulse")
    }
}
