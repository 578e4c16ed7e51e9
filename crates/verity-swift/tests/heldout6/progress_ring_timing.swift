import UIKit

final class ProgressRingView: UIView {
    private let track = CAShapeLayer()
    private let ring = CAShapeLayer()

    override init(frame: CGRect) {
        super.init(frame: frame)
        for shape in [track, ring] {
            shape.fillColor = UIColor.clear.cgColor
            shape.lineWidth = 10
            shape.lineCap = .round
            layer.addSublayer(shape)
        }
        track.strokeColor = UIColor.systemGray5.cgColor
        ring.strokeColor = UIColor.systemBlue.cgColor
        ring.strokeEnd = 0
    }

    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

    override func layoutSubviews() {
        super.layoutSubviews()
        let path = UIBezierPath(ovalIn: bounds.insetBy(dx: 5, dy: 5)).cgPath
        track.path = path
        ring.path = path
    }

    func setProgress(_ value: CGFloat) {
        let animation = CABasicAnimation(keyPath: "strokeEnd")
        animation.fromValue = ring.strokeEnd
        animation.toValue = value
        animation.duration = 0.4
        animation.timingFunction = CAMediaTimingFunction(name: .easeInOut)
        ring.strokeEnd = value
        ring.add(animation, forKey: "progress")
    }
}
