import UIKit

final class BadgeView: UIView {
    func pulse() {
        transform = CGAffineTransform(scaleX: 0.8, y: 0.8)
        UIView.animate(withDuration: 0.4, delay: 0, options: [.curveEaseOut, .bounce]) {
            self.transform = .identity
        }
    }
}
