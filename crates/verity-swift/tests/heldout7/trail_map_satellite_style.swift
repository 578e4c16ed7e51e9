import SwiftUI
import MapKit

struct Trailhead: Identifiable {
    let id = UUID()
    let name: String
    let coordinate: CLLocationCoordinate2D
}

struct TrailMapView: View {
    let trailheads: [Trailhead]
    @State private var position: MapCameraPosition = .automatic

    var body: some View {
        Map(position: $position) {
            ForEach(trailheads) { trailhead in
                Marker(trailhead.name, systemImage: "figure.hiking", coordinate: trailhead.coordinate)
                    .tint(.green)
            }
            UserAnnotation()
        }
        .mapStyle(.satellite)
        .mapControls {
            MapUserLocationButton()
            MapCompass()
        }
    }
}
