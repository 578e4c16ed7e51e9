import UserNotifications

struct WaterReminder {
    let center = UNUserNotificationCenter.current()

    func enable() async throws {
        let granted = try await center.requestAuthorization(options: [.alert, .sound, .badge])
        guard granted else { return }
        let content = UNMutableNotificationContent()
        content.title = "Drink water"
        content.body = "A glass now keeps the headache away."
        content.sound = .default
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 2 * 60 * 60, repeats: true)
        try await center.add(UNNotificationRequest(identifier: "water", content: content, trigger: trigger))
    }

    func disable() {
        center.removePendingNotificationRequests(withIdentifiers: ["water"])
    }
}
