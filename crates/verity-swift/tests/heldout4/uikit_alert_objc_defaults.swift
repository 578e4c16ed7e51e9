import UIKit

final class PermissionsViewController: UIViewController {
    func showCameraDeniedAlert() {
        let alert = UIAlertController(
            title: "Camera access needed",
            message: "Enable camera access in Settings to scan documents.",
            preferredStyle: .alert
        )
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(UIAlertAction(title: "Settings", style: .default) { _ in
            if let url = URL(string: UIApplication.openSettingsURLString) {
                UIApplication.shared.open(url)
            }
        })
        present(alert, animated: true)
    }

    @objc func closeTapped() {
        dismiss(animated: true)
    }
}
