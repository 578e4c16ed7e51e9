import UIKit

final class HeaderViewController: UIViewController {
    private let header = UIView()

    override func viewDidLoad() {
        super.viewDidLoad()
        header.backgroundColor = .systemIndigo
        view.addSubview(header)
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let statusHeight = UIApplication.shared.statusBarFrame.height
        header.frame = CGRect(x: 0, y: 0, width: view.bounds.width, height: statusHeight + 56)
    }
}
