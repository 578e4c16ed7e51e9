import CoreLocation

final class LocationFeed: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private let continuation: AsyncStream<CLLocation>.Continuation
    let locations: AsyncStream<CLLocation>

    override init() {
        let (stream, continuation) = AsyncStream.makeStream(of: CLLocation.self, bufferingPolicy: .bufferingNewest(10))
        self.locations = stream
        self.continuation = continuation
        super.init()
        manager.delegate = self
        manager.desiredAccuracy = kCLLocationAccuracyHundredMeters
        manager.distanceFilter = 50
    }

    func start() {
        manager.requestWhenInUseAuthorization()
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        for location in locations {
            continuation.yield(location)
        }
    }

    deinit {
        continuation.finish()
    }
}
