import UIKit

final class DetailViewController: UIViewController {
    var itemName: String?
    private let nameLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        nameLabel.text = itemName ?? "Untitled"
        nameLabel.font = .preferredFont(forTextStyle: .title1)
        nameLabel.frame = view.bounds.insetBy(dx: 20, dy: 100)
        view.addSubview(nameLabel)
        navigationItem.largeTitleDisplayMode = .never
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        let previousTitle = navigationController?.viewControllers.dropLast().last?.title
        navigationItem.backButtonTitle = previousTitle?.uppercased()
        navigationController?.navigationBar.prefersLargeTitles = true
        tabBarController?.tabBar.isHidden = true
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        tabBarController?.tabBar.isHidden = false
        if let top = navigationController?.topViewController, top !== self {
            print("navigating to \(type(of: top))")
        }
    }
}
