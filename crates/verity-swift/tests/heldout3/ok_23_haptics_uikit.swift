import UIKit

final class FavoriteButton: UIButton {
    private let impact = UIImpactFeedbackGenerator(style: .medium)
    private let notify = UINotificationFeedbackGenerator()

    var isFavorite = false {
        didSet {
            setImage(UIImage(systemName: isFavorite ? "star.fill" : "star"), for: .normal)
        }
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        addTarget(self, action: #selector(toggle), for: .touchUpInside)
        tintColor = .systemYellow
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    @objc private func toggle() {
        isFavorite.toggle()
        impact.impactOccurred()
        if isFavorite {
            notify.notificationOccurred(.success)
        }
    }
}
