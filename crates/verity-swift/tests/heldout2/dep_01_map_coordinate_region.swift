import SwiftUI
import MapKit

struct StoreLocatorView: View {
    @State private var region = MKCoordinateRegion(
        center: CLLocationCoordinate2D(latitude: 37.3349, longitude: -122.0090),
        span: MKCoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.05)
    )

    var body: some View {
        Map(coordinateRegion: $region, showsUserLocation: true)
            .ignoresSafeArea()
            .overlay(alignment: .bottom) {
                Text("Nearby stores")
                    .padding()
                    .background(.thinMaterial, in: Capsule())
                    .padding()
            }
    }
}
