import UIKit

@MainActor
final class ForegroundWatcher {
    private var task: Task<Void, Never>?

    func start() {
        task = Task {
            for await notification in NotificationCenter.default.notifications(named: UIApplication.willEnterForegroundNotification) {
                print("foreground", notification.payload ?? [:])
            }
        }
    }
}
