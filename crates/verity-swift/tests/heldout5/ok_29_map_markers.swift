import SwiftUI
import MapKit

struct Cafe: Identifiable {
    let id = UUID()
    let name: String
    let coordinate: CLLocationCoordinate2D
}

struct CafeMap: View {
    let cafes: [Cafe]
    @State private var position: MapCameraPosition = .region(
        MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522),
                           span: MKCoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.05))
    )
    @State private var selected: UUID?

    var body: some View {
        Map(position: $position, selection: $selected) {
            UserAnnotation()
            ForEach(cafes) { cafe in
                Marker(cafe.name, systemImage: "cup.and.saucer.fill", coordinate: cafe.coordinate)
                    .tint(.brown)
                    .tag(cafe.id)
            }
        }
        .mapStyle(.standard(elevation: .realistic, pointsOfInterest: .excludingAll))
        .mapControls {
            MapUserLocationButton()
            MapCompass()
        }
        .safeAreaInset(edge: .bottom) {
            Button("Show all") { position = .automatic }
                .buttonStyle(.bordered)
        }
    }
}
