import SwiftUI
import MapKit

struct Cafe: Identifiable {
    let id = UUID()
    let name: String
    let coordinate: CLLocationCoordinate2D
}

struct CafeMap: View {
    let cafes: [Cafe]
    @State private var region = MKCoordinateRegion(
        center: CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522),
        span: MKCoordinateSpan(latitudeDelta: 0.02, longitudeDelta: 0.02)
    )

    var body: some View {
        Map(coordinateRegion: $region, annotationItems: cafes) { cafe in
            MapAnnotation(coordinate: cafe.coordinate) {
                Image(systemName: "cup.and.saucer.fill")
                    .padding(6)
                    .background(.white, in: Circle())
            }
        }
    }
}
