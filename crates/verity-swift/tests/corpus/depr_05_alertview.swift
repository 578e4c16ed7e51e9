import UIKit

func showError(_ message: String) {
    let alert = UIAlertView(title: "Error", message: message, delegate: nil, cancelButtonTitle: "OK")
    alert.show()
}
