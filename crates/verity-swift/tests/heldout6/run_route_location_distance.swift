import CoreLocation
import MapKit

struct TrackSummary {
    let coordinates: [CLLocationCoordinate2D]

    var meters: CLLocationDistance {
        zip(coordinates, coordinates.dropFirst()).reduce(0) { sum, pair in
            let a = CLLocation(latitude: pair.0.latitude, longitude: pair.0.longitude)
            let b = CLLocation(latitude: pair.1.latitude, longitude: pair.1.longitude)
            return sum + a.distance(from: b)
        }
    }

    var boundingRegion: MKCoordinateRegion? {
        guard let first = coordinates.first else { return nil }
        let lats = coordinates.map(\.latitude)
        let lons = coordinates.map(\.longitude)
        let center = CLLocationCoordinate2D(
            latitude: (lats.min()! + lats.max()!) / 2,
            longitude: (lons.min()! + lons.max()!) / 2
        )
        let span = MKCoordinateSpan(
            latitudeDelta: max(lats.max()! - lats.min()!, 0.01),
            longitudeDelta: max(lons.max()! - lons.min()!, 0.01)
        )
        _ = first
        return MKCoordinateRegion(center: center, span: span)
    }

    var formattedDistance: String {
        Measurement(value: meters, unit: UnitLength.meters)
            .converted(to: .kilometers)
            .formatted(.measurement(width: .abbreviated, usage: .asProvided))
    }
}
