import UIKit

enum HUD {
    static func show(_ message: String) {
        guard let window = UIApplication.shared.keyWindow else { return }
        let label = UILabel()
        label.text = message
        label.textAlignment = .center
        label.backgroundColor = UIColor.black.withAlphaComponent(0.7)
        label.textColor = .white
        label.frame = CGRect(x: 40, y: window.bounds.midY - 22, width: window.bounds.width - 80, height: 44)
        window.addSubview(label)
        UIView.animate(withDuration: 0.3, delay: 1.5) {
            label.alpha = 0
        } completion: { _ in
            label.removeFromSuperview()
        }
    }
}
