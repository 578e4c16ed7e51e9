import UIKit

final class ThemedViewController: UIViewController {
    private let badge = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        badge.text = "Beta"
        view.addSubview(badge)
        observeTraits()
    }

    private func observeTraits() {
        guard #available(iOS 17.0, *) else { return }
        registerForTraitChanges([UITraitUserInterfaceStyle.self]) { (controller: ThemedViewController, _: UITraitCollection) in
            controller.updateColors()
        }
    }

    private func updateColors() {
        let dark = traitCollection.userInterfaceStyle == .dark
        badge.textColor = dark ? .systemYellow : .systemOrange
    }

    @available(iOS, deprecated: 17.0, message: "Superseded by registerForTraitChanges on iOS 17")
    private func legacyNote() -> String {
        "trait changes were handled in traitCollectionDidChange before iOS 17"
    }
}
