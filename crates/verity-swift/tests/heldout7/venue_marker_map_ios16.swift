import SwiftUI
import MapKit

struct VenueMap: View {
    let venue: (name: String, coordinate: CLLocationCoordinate2D)

    var body: some View {
        Map(initialPosition: .region(MKCoordinateRegion(center: venue.coordinate,
                                                        latitudinalMeters: 1000,
                                                        longitudinalMeters: 1000))) {
            Marker(venue.name, coordinate: venue.coordinate)
        }
        .frame(height: 240)
        .clipShape(RoundedRectangle(cornerRadius: 12))
    }
}
