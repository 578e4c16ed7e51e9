import CoreLocation

final class LocationPermission: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()

    var canUseLocation: Bool {
        switch CLLocationManager.authorizationStatus() {
        case .authorizedAlways, .authorizedWhenInUse:
            return true
        default:
            return false
        }
    }

    func request() {
        manager.delegate = self
        manager.requestWhenInUseAuthorization()
    }
}
