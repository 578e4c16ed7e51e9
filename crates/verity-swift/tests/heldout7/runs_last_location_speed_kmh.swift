import CoreLocation

final class RunTracker: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private(set) var route: [CLLocation] = []
    var onSpeed: ((Double) -> Void)?

    override init() {
        super.init()
        manager.delegate = self
        manager.activityType = .fitness
        manager.desiredAccuracy = kCLLocationAccuracyBest
    }

    func start() {
        manager.requestWhenInUseAuthorization()
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        route.append(contentsOf: locations)
        if let speed = locations.last?.speedKmh {
            onSpeed?(speed)
        }
    }
}
