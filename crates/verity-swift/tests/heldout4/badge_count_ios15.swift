import UserNotifications

struct BadgeUpdater {
    let center = UNUserNotificationCenter.current()

    func update(unread count: Int) {
        center.getDeliveredNotifications { delivered in
            if delivered.isEmpty && count == 0 {
                return
            }
            center.setBadgeCount(count)
        }
    }
}
