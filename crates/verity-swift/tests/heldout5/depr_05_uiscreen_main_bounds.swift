import UIKit

final class OnboardingPageController: UIPageViewController {
    private var pages: [UIViewController] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        let width = UIScreen.main.bounds.width
        pages = ["Welcome", "Track", "Share"].map { title in
            let controller = UIViewController()
            let label = UILabel(frame: CGRect(x: 0, y: 0, width: width - 40, height: 60))
            label.text = title
            label.textAlignment = .center
            controller.view.addSubview(label)
            return controller
        }
        if let first = pages.first {
            setViewControllers([first], direction: .forward, animated: false)
        }
    }
}
