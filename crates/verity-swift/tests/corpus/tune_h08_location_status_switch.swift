import CoreLocation

final class LocationPermission: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    var onChange: ((Bool) -> Void)?

    override init() {
        super.init()
        manager.delegate = self
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        switch manager.authorizationStatus {
        case .authorizedAlways, .authorizedWhenInUse:
            onChange?(true)
        case .authorizedPartially:
            onChange?(true)
        case .denied, .restricted:
            onChange?(false)
        case .notDetermined:
            manager.requestWhenInUseAuthorization()
        @unknown default:
            onChange?(false)
        }
    }
}
