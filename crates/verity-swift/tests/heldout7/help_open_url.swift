import UIKit

final class HelpViewController: UIViewController {
    private let supportURL = URL(string: "https://support.example.com")!

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        let button = UIButton(configuration: .filled(), primaryAction: UIAction(title: "Open support site") { [weak self] _ in
            self?.openSupport()
        })
        button.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(button)
        NSLayoutConstraint.activate([
            button.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            button.centerYAnchor.constraint(equalTo: view.centerYAnchor),
        ])
    }

    private func openSupport() {
        if UIApplication.shared.canOpenURL(supportURL) {
            UIApplication.shared.openURL(supportURL)
        }
    }
}
