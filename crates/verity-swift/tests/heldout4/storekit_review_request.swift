import StoreKit

enum ReviewPrompt {
    private static let key = "completedSessions"

    static func recordSession() {
        let defaults = UserDefaults.standard
        let count = defaults.integer(forKey: key) + 1
        defaults.set(count, forKey: key)
        if count == 5 {
            SKStoreReviewController.requestReview()
        }
    }
}
