import UserNotifications

final class NotificationRouter: NSObject, UNUserNotificationCenterDelegate {
    var openConversation: ((String) -> Void)?

    func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        let userInfo = response.notification.content.userInfo
        if response.actionIdentifier == UNNotificationDefaultActionIdentifier,
           let id = userInfo["conversationID"] as? String {
            openConversation?(id)
        }
        completionHandler()
    }
}
