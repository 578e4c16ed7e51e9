import UIKit
import UserNotifications

@MainActor
func setAppBadge(_ count: Int) {
    if #available(iOS 16.0, *) {
        UNUserNotificationCenter.current().setBadgeCount(count) { error in
            if let error {
                print("badge failed: \(error)")
            }
        }
    } else {
        UIApplication.shared.applicationIconBadgeNumber = count
    }
}
