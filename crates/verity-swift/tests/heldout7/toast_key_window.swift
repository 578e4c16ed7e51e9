import UIKit

enum Toast {
    static func show(_ message: String, duration: TimeInterval = 2) {
        guard let window = UIApplication.shared.keyWindow else { return }
        let label = UILabel()
        label.text = message
        label.textColor = .white
        label.backgroundColor = UIColor.black.withAlphaComponent(0.8)
        label.textAlignment = .center
        label.layer.cornerRadius = 12
        label.clipsToBounds = true
        label.alpha = 0
        label.frame = CGRect(x: 40, y: window.bounds.height - 140, width: window.bounds.width - 80, height: 44)
        window.addSubview(label)
        UIView.animate(withDuration: 0.25) {
            label.alpha = 1
        } completion: { _ in
            UIView.animate(withDuration: 0.25, delay: duration, options: [.curveEaseIn]) {
                label.alpha = 0
            } completion: { _ in
                label.removeFromSuperview()
            }
        }
    }
}
