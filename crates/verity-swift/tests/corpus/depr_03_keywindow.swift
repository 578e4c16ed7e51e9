import UIKit

func topController() -> UIViewController? {
    let window = UIApplication.shared.keyWindow
    return window?.rootViewController
}
