import UserNotifications

enum BadgeManager {
    static func clear() async {
        do {
            try await UNUserNotificationCenter.current().setBadgeCount(0)
        } catch {
            print("Could not clear badge: \(error)")
        }
    }

    static func pending() async -> Int {
        await UNUserNotificationCenter.current().pendingNotificationRequests().count
    }
}
