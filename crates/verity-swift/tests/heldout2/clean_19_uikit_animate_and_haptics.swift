import UIKit

final class LikeButton: UIButton {
    private let feedback = UIImpactFeedbackGenerator(style: .rigid)

    func animateLike() {
        feedback.impactOccurred()
        transform = CGAffineTransform(scaleX: 0.8, y: 0.8)
        UIView.animate(
            withDuration: 0.4,
            delay: 0,
            usingSpringWithDamping: 0.5,
            initialSpringVelocity: 4,
            options: [.curveEaseOut, .allowUserInteraction]
        ) {
            self.transform = .identity
        } completion: { _ in
            self.isSelected.toggle()
        }
    }
}
