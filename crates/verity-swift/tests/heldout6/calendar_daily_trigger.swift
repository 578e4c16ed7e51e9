import UserNotifications

enum StandupReminder {
    static func schedule(hour: Int, minute: Int) {
        let center = UNUserNotificationCenter.current()
        center.requestAuthorization(options: [.alert, .sound, .provisional]) { granted, _ in
            guard granted else { return }
            let content = UNMutableNotificationContent()
            content.title = "Stand-up"
            content.subtitle = "Daily sync"
            content.interruptionLevel = .timeSensitive
            content.threadIdentifier = "meetings"

            var components = DateComponents()
            components.hour = hour
            components.minute = minute
            let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
            let request = UNNotificationRequest(identifier: "standup", content: content, trigger: trigger)
            center.add(request)
        }
    }
}
