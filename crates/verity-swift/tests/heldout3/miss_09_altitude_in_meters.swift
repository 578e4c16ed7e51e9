import CoreLocation

final class HikeTracker: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private(set) var elevations: [Double] = []

    override init() {
        super.init()
        manager.delegate = self
        manager.desiredAccuracy = kCLLocationAccuracyBest
    }

    func start() {
        manager.requestWhenInUseAuthorization()
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard let height = locations.last?.altitudeInMeters else { return }
        elevations.append(height)
    }
}
