import SwiftUI
import MapKit

struct ParkMapView: View {
    @State private var position: MapCameraPosition = .automatic
    let parks: [Park]

    var body: some View {
        Map(position: $position) {
            ForEach(parks) { park in
                Marker(park.name, coordinate: park.coordinate)
                    .tint(.green)
            }
        }
        .mapStyle(.satellite)
        .mapControls {
            MapUserLocationButton()
            MapCompass()
        }
    }
}

struct Park: Identifiable {
    let id = UUID()
    let name: String
    let coordinate: CLLocationCoordinate2D
}
