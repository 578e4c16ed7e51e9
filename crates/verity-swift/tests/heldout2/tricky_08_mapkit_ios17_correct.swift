import SwiftUI
import MapKit

struct CafeMap: View {
    @State private var position: MapCameraPosition = .userLocation(fallback: .automatic)
    let cafes: [Cafe]

    var body: some View {
        Map(position: $position) {
            UserAnnotation()
            ForEach(cafes) { cafe in
                Annotation(cafe.name, coordinate: cafe.coordinate) {
                    Image(systemName: "cup.and.saucer.fill")
                        .padding(6)
                        .background(.brown, in: Circle())
                        .foregroundStyle(.white)
                }
            }
        }
        .mapStyle(.standard(elevation: .realistic))
        .mapControls {
            MapUserLocationButton()
            MapPitchToggle()
        }
    }
}

struct Cafe: Identifiable {
    let id = UUID()
    let name: String
    let coordinate: CLLocationCoordinate2D
}
