import CoreLocation
import MapKit

struct Store: Identifiable {
    let id: UUID
    let name: String
    let coordinate: CLLocationCoordinate2D
}

enum DistanceFormatter {
    static func distanceText(from user: CLLocation, to store: Store) -> String {
        let storeLocation = CLLocation(latitude: store.coordinate.lat,
                                       longitude: store.coordinate.longitude)
        let meters = user.distance(from: storeLocation)
        let measurement = Measurement(value: meters, unit: UnitLength.meters)
        return measurement.formatted(.measurement(width: .abbreviated, usage: .road))
    }

    static func region(around store: Store) -> MKCoordinateRegion {
        MKCoordinateRegion(center: store.coordinate,
                           latitudinalMeters: 800,
                           longitudinalMeters: 800)
    }
}
