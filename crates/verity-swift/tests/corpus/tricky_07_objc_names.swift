import UIKit

final class Coordinator: NSObject {
    let nav = UINavigationController()

    func show(_ vc: UIViewController) {
        nav.pushViewController(vc, animated: true)
        nav.popViewController(animated: false)
        vc.present(UIViewController(), animated: true, completion: nil)
        UIView.animate(withDuration: 0.3) {
            vc.view.alpha = 0.5
        }
        let label = UILabel()
        label.text = "Hello"
        label.font = .preferredFont(forTextStyle: .headline)
        label.textColor = .secondaryLabel
        label.numberOfLines = 0
        label.sizeToFit()
        print(description, label.description, responds(to: #selector(show(_:))))
        let image = UIImage(systemName: "star.fill")?.withRenderingMode(.alwaysTemplate)
        let button = UIButton(type: .system)
        button.setTitle("Tap", for: .normal)
        button.addTarget(self, action: #selector(tapped), for: .touchUpInside)
        button.setImage(image, for: .normal)
    }

    @objc func tapped() {}
}
