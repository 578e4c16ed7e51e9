import UIKit

enum WindowFinder {
    @MainActor
    static func topViewController() -> UIViewController? {
        let scenes = UIApplication.shared.connectedScenes
            .compactMap { $0 as? UIWindowScene }
            .filter { $0.activationState == .foregroundActive }
        let keyWindow = scenes.first?.windows.first(where: \.isKeyWindow)
        var top = keyWindow?.rootViewController
        while let presented = top?.presentedViewController {
            top = presented
        }
        return top
    }

    @MainActor
    static func screenWidth(for view: UIView) -> CGFloat {
        view.window?.windowScene?.screen.bounds.width ?? view.bounds.width
    }
}
