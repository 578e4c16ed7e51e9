import UserNotifications

struct ReminderScheduler {
    let center = UNUserNotificationCenter.current()

    func scheduleWaterReminder(at hour: Int) async throws {
        let granted = try await center.requestAuthorization(options: [.alert, .sound, .badge])
        guard granted else { return }

        let content = UNMutableNotificationContent()
        content.title = "Hydrate"
        content.body = "Time for a glass of water."
        content.sound = .default
        content.priority = .high

        var components = DateComponents()
        components.hour = hour
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
        let request = UNNotificationRequest(identifier: "water-\(hour)", content: content, trigger: trigger)
        try await center.add(request)
    }
}
