import UIKit

final class SupportViewController: UIViewController {
    private let supportURL = URL(string: "https://example.com/support")!

    override func viewDidLoad() {
        super.viewDidLoad()
        let button = UIButton(type: .system)
        button.setTitle("Contact support", for: .normal)
        button.addTarget(self, action: #selector(openSupport), for: .touchUpInside)
        button.frame = CGRect(x: 20, y: 100, width: 200, height: 44)
        view.addSubview(button)
    }

    @objc private func openSupport() {
        UIApplication.shared.open(supportURL, options: [:], completion: nil)
    }
}
