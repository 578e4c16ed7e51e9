import CoreLocation

final class WalkRecorder: NSObject {
    let locationManager = CLLocationManager()

    func configure() {
        locationManager.activityType = .walking
        locationManager.distanceFilter = 10
        locationManager.allowsBackgroundLocationUpdates = true
        locationManager.pausesLocationUpdatesAutomatically = false
    }
}
