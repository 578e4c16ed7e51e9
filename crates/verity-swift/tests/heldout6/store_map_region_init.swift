import SwiftUI
import MapKit

struct StoreLocatorView: View {
    @State private var region = MKCoordinateRegion(
        center: CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405),
        span: MKCoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.05)
    )

    var body: some View {
        Map(coordinateRegion: $region, showsUserLocation: true)
            .ignoresSafeArea()
            .overlay(alignment: .top) {
                Text("Stores near you")
                    .font(.headline)
                    .padding(8)
                    .background(.regularMaterial, in: Capsule())
            }
    }
}
