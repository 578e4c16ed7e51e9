import UIKit

final class CopyableLabel: UILabel {
    override var canBecomeFirstResponder: Bool { true }

    override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = true
        addGestureRecognizer(UILongPressGestureRecognizer(target: self, action: #selector(showMenu)))
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    @objc private func showMenu() {
        becomeFirstResponder()
        let menu = UIMenuController.shared
        menu.showMenu(from: self, rect: bounds)
    }

    override func copy(_ sender: Any?) {
        UIPasteboard.general.string = text
    }
}
