import SwiftUI
import MapKit

struct Branch: Identifiable {
    let id: Int
    let name: String
    let coordinate: CLLocationCoordinate2D
}

struct BranchMapView: View {
    let branches: [Branch]
    @State private var region = MKCoordinateRegion(
        center: CLLocationCoordinate2D(latitude: 51.5072, longitude: -0.1276),
        span: MKCoordinateSpan(latitudeDelta: 0.2, longitudeDelta: 0.2)
    )

    var body: some View {
        Map(coordinateRegion: $region, annotationItems: branches) { branch in
            MapMarker(coordinate: branch.coordinate, tint: .red)
        }
        .ignoresSafeArea(edges: .bottom)
    }
}
