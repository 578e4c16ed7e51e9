import CoreLocation

final class GeofenceChecker: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private let office = CLLocationCoordinate2D(latitude: 37.3349, longitude: -122.0090)
    var onChange: ((Bool) -> Void)?

    func start() {
        manager.delegate = self
        manager.requestWhenInUseAuthorization()
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard let coordinate = locations.first?.coordinate,
              let timestamp = locations.last?.timestamp,
              timestamp.timeIntervalSinceNow > -30,
              (locations.last?.horizontalAccuracy ?? .infinity) < 100 else { return }
        let here = CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude)
        let target = CLLocation(latitude: office.latitude, longitude: office.longitude)
        onChange?(here.distance(from: target) < 150)
    }
}
