import UserNotifications

struct WaterReminder {
    func schedule(hour: Int, minute: Int) async throws {
        let content = UNMutableNotificationContent()
        content.title = "Drink water"
        content.body = "Time for a glass of water."
        content.sound = .default
        content.interruptionLevel = .timeSensitive
        content.threadIdentifier = "hydration"

        var components = DateComponents()
        components.hour = hour
        components.minute = minute
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)

        let request = UNNotificationRequest(identifier: "water-\(hour)-\(minute)", content: content, trigger: trigger)
        try await UNUserNotificationCenter.current().add(request)
    }

    func snooze(minutes: Double) {
        let content = UNMutableNotificationContent()
        content.title = "Reminder"
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: minutes * 60, repeats: false)
        UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: UUID().uuidString, content: content, trigger: trigger))
    }

    func clear() {
        let center = UNUserNotificationCenter.current()
        center.removeAllPendingNotificationRequests()
        center.setBadgeCount(0)
    }
}
