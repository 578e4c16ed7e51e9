import UIKit

final class AvatarBadgeView: UIView {
    private let imageView = UIImageView()

    func configure(image: UIImage?, frame: CGRect, tintColor: UIColor) {
        let layer = CAShapeLayer()
        layer.path = UIBezierPath(ovalIn: frame).cgPath
        layer.fillColor = tintColor.withAlphaComponent(0.2).cgColor
        self.layer.insertSublayer(layer, at: 0)

        let bounds = frame.insetBy(dx: 6, dy: 6)
        imageView.frame = bounds
        imageView.image = image
        imageView.contentMode = .scaleAspectFill
        imageView.layer.cornerRadius = bounds.width / 2
        imageView.clipsToBounds = true
        addSubview(imageView)

        let window = self.window
        let center = window.map { convert(CGPoint(x: bounds.midX, y: bounds.midY), to: $0) }
        accessibilityLabel = center.map { "Avatar at \(Int($0.x)), \(Int($0.y))" } ?? "Avatar"
    }
}
