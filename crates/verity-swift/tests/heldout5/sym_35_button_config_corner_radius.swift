import UIKit

final class CheckoutButton: UIButton {
    override init(frame: CGRect) {
        super.init(frame: frame)
        var config = UIButton.Configuration.filled()
        config.title = "Checkout"
        config.image = UIImage(systemName: "cart")
        config.imagePadding = 8
        config.baseBackgroundColor = .systemGreen
        config.cornerRadius = 12
        config.contentInsets = NSDirectionalEdgeInsets(top: 12, leading: 20, bottom: 12, trailing: 20)
        configuration = config
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}
