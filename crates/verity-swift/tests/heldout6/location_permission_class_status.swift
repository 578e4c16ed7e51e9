import CoreLocation

final class PermissionChecker: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()

    var canTrack: Bool {
        switch CLLocationManager.authorizationStatus() {
        case .authorizedAlways, .authorizedWhenInUse:
            return true
        default:
            return false
        }
    }

    func request() {
        manager.delegate = self
        if CLLocationManager.locationServicesEnabled() {
            manager.requestWhenInUseAuthorization()
        }
    }
}
