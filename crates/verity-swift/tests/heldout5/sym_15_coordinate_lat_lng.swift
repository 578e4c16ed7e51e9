import CoreLocation
import MapKit

struct NearbyQuery {
    let manager = CLLocationManager()

    func regionAroundUser(radius: CLLocationDistance) -> MKCoordinateRegion? {
        guard let coordinate = manager.location?.coordinate else { return nil }
        return MKCoordinateRegion(center: coordinate, latitudinalMeters: radius * 2, longitudinalMeters: radius * 2)
    }

    func queryString() -> String? {
        guard let coordinate = manager.location?.coordinate else { return nil }
        return "lat=\(coordinate.lat)&lon=\(coordinate.longitude)"
    }
}
