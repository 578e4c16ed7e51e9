import CoreLocation
import UIKit

final class PermissionBanner: UIView {
    private let manager = CLLocationManager()
    private let label = UILabel()

    func refresh() {
        let status = manager.authorizationStatus
        let accuracy = manager.accuracyAuthorization
        let description = status == .denied ? "Location is off" : "Location is on"
        let count = description.count
        let layer = CALayer()
        layer.cornerRadius = 8
        label.text = accuracy == .reducedAccuracy ? description + " (approximate)" : description
        label.accessibilityLabel = "\(description), \(count) characters"
        self.layer.addSublayer(layer)
    }
}
