import UIKit

@MainActor
enum Presenter {
    static var activeWindowScene: UIWindowScene? {
        UIApplication.shared.connectedScenes
            .compactMap { $0 as? UIWindowScene }
            .first { $0.activationState == .foregroundActive }
    }

    static var rootViewController: UIViewController? {
        activeWindowScene?.keyWindow?.rootViewController
    }

    static func present(_ viewController: UIViewController) {
        var top = rootViewController
        while let presented = top?.presentedViewController {
            top = presented
        }
        top?.present(viewController, animated: true)
    }

    static var interfaceOrientation: UIInterfaceOrientation {
        activeWindowScene?.interfaceOrientation ?? .portrait
    }

    static var screenScale: CGFloat {
        activeWindowScene?.screen.scale ?? 2
    }

    static var windowCount: Int {
        activeWindowScene?.windows.count ?? 0
    }
}
