import UIKit

enum Presenter {
    static func topController() -> UIViewController? {
        var top = UIApplication.shared.windows.first { $0.isKeyWindow }?.rootViewController
        while let presented = top?.presentedViewController {
            top = presented
        }
        return top
    }
}
