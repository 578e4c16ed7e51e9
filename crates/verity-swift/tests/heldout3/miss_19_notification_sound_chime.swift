import UserNotifications

func scheduleStandUpReminder() async throws {
    let content = UNMutableNotificationContent()
    content.title = "Time to stretch"
    content.body = "You have been sitting for an hour."
    content.sound = .chime

    let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 3_600, repeats: true)
    let request = UNNotificationRequest(identifier: "stand-up", content: content, trigger: trigger)
    try await UNUserNotificationCenter.current().add(request)
}
