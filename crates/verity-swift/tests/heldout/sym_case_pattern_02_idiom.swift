import UIKit

enum LayoutMetrics {
    @MainActor
    static var columns: Int {
        switch UIDevice.current.userInterfaceIdiom {
        case .phone:
            return 2
        case .pad:
            return 4
        case .mac:
            return 6
        case .watch:
            return 1
        default:
            return 3
        }
    }

    @MainActor
    static func spacing(for traits: UITraitCollection) -> CGFloat {
        traits.horizontalSizeClass == .regular ? 16 : 8
    }
}
