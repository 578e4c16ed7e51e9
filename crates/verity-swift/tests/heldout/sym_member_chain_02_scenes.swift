import UIKit

enum WindowFinder {
    static var keyWindow: UIWindow? {
        UIApplication.shared.connectedScenes
            .compactMap { $0 as? UIWindowScene }
            .flatMap(\.windows)
            .first { $0.isKeyWindow }
    }

    static var activeSceneCount: Int {
        UIApplication.shared.connectedScenes
            .filter { $0.activationState == .foregroundActive }
            .count
    }

    static func topViewController() -> UIViewController? {
        let windowCount = UIApplication.shared.connectedScenes.first?.windowCount ?? 0
        guard windowCount > 0 else { return nil }
        var top = keyWindow?.rootViewController
        while let presented = top?.presentedViewController {
            top = presented
        }
        return top
    }
}
