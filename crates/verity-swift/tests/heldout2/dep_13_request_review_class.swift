import StoreKit
import UIKit

struct ReviewPrompter {
    private let defaults = UserDefaults.standard

    func recordLaunch() {
        let launches = defaults.integer(forKey: "launchCount") + 1
        defaults.set(launches, forKey: "launchCount")
        if launches == 10 {
            SKStoreReviewController.requestReview()
        }
    }
}
