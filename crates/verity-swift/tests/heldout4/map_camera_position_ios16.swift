import SwiftUI
import MapKit

struct StoreLocator: View {
    @State private var camera: MapCameraPosition = .automatic
    let store: CLLocationCoordinate2D

    var body: some View {
        Map(position: $camera) {
            Marker("Store", coordinate: store)
        }
        .frame(height: 240)
    }
}
