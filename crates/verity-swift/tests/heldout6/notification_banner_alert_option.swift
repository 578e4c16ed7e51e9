import UserNotifications

final class ForegroundNotifier: NSObject, UNUserNotificationCenterDelegate {
    func install() {
        UNUserNotificationCenter.current().delegate = self
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        if notification.request.content.categoryIdentifier == "chat" {
            completionHandler([.alert, .sound])
        } else {
            completionHandler([.badge])
        }
    }
}
