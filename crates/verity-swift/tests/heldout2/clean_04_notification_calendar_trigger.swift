import UserNotifications

struct DailyReminder {
    let identifier = "daily-reminder"

    func schedule(hour: Int, minute: Int) async throws {
        let center = UNUserNotificationCenter.current()
        let settings = await center.notificationSettings()
        guard settings.authorizationStatus == .authorized else { return }

        let content = UNMutableNotificationContent()
        content.title = "Time to stretch"
        content.body = "Take two minutes for yourself."
        content.sound = .default
        content.badge = 1

        var components = DateComponents()
        components.hour = hour
        components.minute = minute
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)

        center.removePendingNotificationRequests(withIdentifiers: [identifier])
        try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: trigger))
    }
}
