import UIKit

enum SafeArea {
    @MainActor
    static var bottomInset: CGFloat {
        UIApplication.shared.keyWindow?.safeAreaInsets.bottom ?? 0
    }

    @MainActor
    static func padding(for view: UIView) -> UIEdgeInsets {
        UIEdgeInsets(top: 12, left: 16, bottom: 12 + bottomInset, right: 16)
    }
}

final class ComposerViewController: UIViewController {
    private let sendButton = UIButton(type: .system)

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let insets = SafeArea.padding(for: view)
        sendButton.frame = CGRect(x: insets.left, y: view.bounds.height - insets.bottom - 44,
                                  width: view.bounds.width - insets.left - insets.right, height: 44)
    }
}
