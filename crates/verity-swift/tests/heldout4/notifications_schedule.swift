import UserNotifications

struct ReminderScheduler {
    private let center = UNUserNotificationCenter.current()

    func requestPermission() async -> Bool {
        (try? await center.requestAuthorization(options: [.alert, .sound, .badge])) ?? false
    }

    func scheduleDaily(at hour: Int, minute: Int, title: String) async throws {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = "Time to review your goals."
        content.sound = .default

        var components = DateComponents()
        components.hour = hour
        components.minute = minute
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
        let request = UNNotificationRequest(identifier: "daily-\(hour)-\(minute)", content: content, trigger: trigger)
        try await center.add(request)
    }

    func cancelAll() {
        center.removeAllPendingNotificationRequests()
    }
}
