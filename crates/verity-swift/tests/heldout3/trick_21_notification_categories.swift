import UserNotifications

enum MedicationReminders {
    static let categoryID = "MEDICATION"

    static func register() {
        let taken = UNNotificationAction(identifier: "TAKEN", title: "Taken", options: [])
        let snooze = UNNotificationAction(identifier: "SNOOZE", title: "Remind me in 10 min", options: [.foreground])
        let category = UNNotificationCategory(
            identifier: categoryID,
            actions: [taken, snooze],
            intentIdentifiers: [],
            options: .customDismissAction
        )
        UNUserNotificationCenter.current().setNotificationCategories([category])
    }

    static func schedule(at components: DateComponents) async throws {
        let content = UNMutableNotificationContent()
        content.title = "Medication"
        content.categoryIdentifier = categoryID
        content.interruptionLevel = .timeSensitive
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
        try await UNUserNotificationCenter.current().add(
            UNNotificationRequest(identifier: UUID().uuidString, content: content, trigger: trigger)
        )
    }
}
