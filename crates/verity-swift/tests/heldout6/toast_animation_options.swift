import UIKit

final class ToastView: UILabel {
    func show(in container: UIView, message: String) {
        text = message
        textAlignment = .center
        backgroundColor = UIColor.black.withAlphaComponent(0.8)
        textColor = .white
        layer.cornerRadius = 12
        clipsToBounds = true
        alpha = 0
        frame = CGRect(x: 24, y: container.bounds.height - 120, width: container.bounds.width - 48, height: 44)
        container.addSubview(self)

        UIView.animate(withDuration: 0.35, delay: 0, options: [.curveEaseOut, .allowUserInteraction, .bounce]) {
            self.alpha = 1
        } completion: { _ in
            UIView.animate(withDuration: 0.3, delay: 2, options: .curveEaseIn) {
                self.alpha = 0
            } completion: { _ in
                self.removeFromSuperview()
            }
        }
    }
}
