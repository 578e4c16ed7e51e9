import UIKit

func isLandscape() -> Bool {
    UIApplication.shared.statusBarOrientation.isLandscape
}
