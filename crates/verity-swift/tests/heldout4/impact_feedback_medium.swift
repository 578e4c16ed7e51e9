import UIKit

final class Haptics {
    static let shared = Haptics()
    private let impact = UIImpactFeedbackGenerator(style: .medium)
    private let notification = UINotificationFeedbackGenerator()

    func tap() {
        impact.prepare()
        impact.impactOccurred()
    }

    func saved() {
        notification.notificationOccurred(.success)
    }
}
