import CoreLocation

final class RunTracker: NSObject, CLLocationManagerDelegate {
    private var start: CLLocation?
    private(set) var distanceMeters: CLLocationDistance = 0

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard let newest = locations.last else { return }
        guard let start else {
            self.start = newest
            return
        }
        distanceMeters = newest.distance(to: start)
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
        print("Location error: \(error.localizedDescription)")
    }
}
