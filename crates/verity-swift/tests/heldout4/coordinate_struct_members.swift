import CoreLocation
import MapKit

struct Geofence {
    let center: CLLocationCoordinate2D
    let radius: CLLocationDistance

    var isValid: Bool {
        CLLocationCoordinate2DIsValid(center) && radius > 0
    }

    func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        let a = CLLocation(latitude: center.latitude, longitude: center.longitude)
        let b = CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude)
        return a.distance(from: b) <= radius
    }

    var region: MKCoordinateRegion {
        MKCoordinateRegion(center: center, latitudinalMeters: radius * 2, longitudinalMeters: radius * 2)
    }
}

func badgeCenter(in rect: CGRect) -> CGPoint {
    let inner = rect.insetBy(dx: 8, dy: 8)
    return CGPoint(x: inner.midX, y: inner.midY - inner.width / 4)
}
