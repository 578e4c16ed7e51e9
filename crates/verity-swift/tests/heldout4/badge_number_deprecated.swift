import UIKit
import UserNotifications

final class AppBadge {
    @MainActor
    static func clear() {
        UIApplication.shared.applicationIconBadgeNumber = 0
        UNUserNotificationCenter.current().removeAllDeliveredNotifications()
    }
}
