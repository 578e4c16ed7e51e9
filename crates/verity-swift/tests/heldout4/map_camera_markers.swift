import SwiftUI
import MapKit

struct Cafe: Identifiable {
    let id = UUID()
    let name: String
    let coordinate: CLLocationCoordinate2D
}

struct CafeMap: View {
    let cafes: [Cafe]
    @State private var position: MapCameraPosition = .automatic

    var body: some View {
        Map(position: $position) {
            ForEach(cafes) { cafe in
                Marker(cafe.name, systemImage: "cup.and.saucer", coordinate: cafe.coordinate)
            }
            if let first = cafes.first {
                Annotation("Start", coordinate: first.coordinate) {
                    Circle().fill(.blue).frame(width: 12, height: 12)
                }
            }
        }
        .mapStyle(.standard(elevation: .realistic))
        .mapControls {
            MapUserLocationButton()
            MapCompass()
        }
        .onAppear {
            if let first = cafes.first {
                position = .region(MKCoordinateRegion(center: first.coordinate, latitudinalMeters: 2000, longitudinalMeters: 2000))
            }
        }
    }
}
