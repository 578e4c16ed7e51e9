import UIKit

enum OnboardingPresenter {
    static func showIfNeeded() {
        let defaults = UserDefaults.standard
        guard !defaults.bool(forKey: "didOnboard") else { return }
        let onboarding = UIViewController()
        onboarding.view.backgroundColor = .systemBackground
        onboarding.modalPresentationStyle = .fullScreen
        UIApplication.shared.keyWindow?.rootViewController?.present(onboarding, animated: true)
        defaults.set(true, forKey: "didOnboard")
    }
}
