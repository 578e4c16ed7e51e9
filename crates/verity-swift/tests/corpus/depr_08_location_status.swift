import CoreLocation

func canUseLocation() -> Bool {
    let status = CLLocationManager.authorizationStatus()
    return status == .authorizedWhenInUse || status == .authorizedAlways
}
