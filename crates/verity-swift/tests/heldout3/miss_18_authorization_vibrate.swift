import UserNotifications

enum ReminderPermissions {
    static func ask() async -> Bool {
        let center = UNUserNotificationCenter.current()
        do {
            return try await center.requestAuthorization(options: [.alert, .badge, .vibrate])
        } catch {
            return false
        }
    }
}
