import UserNotifications

struct WaterReminder {
    func schedule(every hours: Int) async throws {
        let center = UNUserNotificationCenter.current()
        let granted = try await center.requestAuthorization(options: [.alert, .sound, .badge])
        guard granted else { return }

        let content = UNMutableNotificationContent()
        content.title = "Hydrate"
        content.body = "Time for a glass of water."
        content.sound = .default

        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: TimeInterval(hours * 3600), repeats: true)
        let request = UNNotificationRequest(identifier: "water", content: content, trigger: trigger)
        try await center.addNotification(request)
    }
}
