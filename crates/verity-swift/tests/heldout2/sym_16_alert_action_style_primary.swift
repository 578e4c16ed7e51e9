import UIKit

extension UIViewController {
    func confirmDeletion(of name: String, onConfirm: @escaping () -> Void) {
        let alert = UIAlertController(
            title: "Delete \(name)?",
            message: "This cannot be undone.",
            preferredStyle: .alert
        )
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(UIAlertAction(title: "Delete", style: .primary) { _ in
            onConfirm()
        })
        present(alert, animated: true)
    }
}
