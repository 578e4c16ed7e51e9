import UIKit

enum ShareSheet {
    @MainActor
    static func present(items: [Any]) {
        let scene = UIApplication.shared.connectedScenes
            .compactMap { $0 as? UIWindowScene }
            .first { $0.activationState == .foregroundActive }
        guard var top = scene?.keyWindow?.rootViewController else { return }
        while let presented = top.presentedViewController {
            top = presented
        }
        let activity = UIActivityViewController(activityItems: items, applicationActivities: nil)
        top.present(activity, animated: true)
    }
}
