import CoreLocation

final class WalkRecorder: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private(set) var route: [CLLocation] = []

    func begin() {
        manager.delegate = self
        manager.activityType = .walking
        manager.desiredAccuracy = kCLLocationAccuracyBest
        manager.allowsBackgroundLocationUpdates = true
        manager.pausesLocationUpdatesAutomatically = false
        manager.requestAlwaysAuthorization()
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        route.append(contentsOf: locations.filter { $0.horizontalAccuracy < 20 })
    }
}
