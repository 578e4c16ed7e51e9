import UIKit

final class PulseView: UIView {
    private let gradient = CAGradientLayer()

    override func didMoveToWindow() {
        super.didMoveToWindow()
        gradient.colors = [UIColor.systemPink.cgColor, UIColor.systemOrange.cgColor]
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        gradient.type = .axial
        layer.insertSublayer(gradient, at: 0)
        startPulse()
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        gradient.frame = bounds
        gradient.cornerRadius = min(bounds.width, bounds.height) / 2
        let center = CGPoint(x: bounds.midX, y: bounds.midY)
        let inset = bounds.insetBy(dx: bounds.width * 0.1, dy: bounds.height * 0.1)
        gradient.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        gradient.position = center
        layer.shadowPath = UIBezierPath(roundedRect: inset, cornerRadius: inset.height / 2).cgPath
    }

    private func startPulse() {
        let pulse = CABasicAnimation(keyPath: "transform.scale")
        pulse.fromValue = 1.0
        pulse.toValue = 1.08
        pulse.duration = 0.8
        pulse.autoreverses = true
        pulse.repeatCount = .infinity
        pulse.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        gradient.add(pulse, forKey: "pulse")
    }
}
