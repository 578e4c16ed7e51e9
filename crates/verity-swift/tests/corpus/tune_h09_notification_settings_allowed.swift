import UserNotifications

final class NotificationPermissions {
    func refresh(completion: @escaping (Bool) -> Void) {
        UNUserNotificationCenter.current().getNotificationSettings { settings in
            if settings.authorizationStatus == .allowed {
                completion(true)
            } else {
                completion(false)
            }
        }
    }
}
