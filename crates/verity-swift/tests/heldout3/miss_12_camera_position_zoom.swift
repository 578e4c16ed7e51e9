import SwiftUI
import MapKit

struct HarbourMap: View {
    @State private var camera: MapCameraPosition = .region(
        MKCoordinateRegion(
            center: CLLocationCoordinate2D(latitude: 43.2965, longitude: 5.3698),
            span: MKCoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.05)
        )
    )

    var body: some View {
        Map(position: $camera)
            .overlay(alignment: .bottomTrailing) {
                Button("Closer") {
                    withAnimation {
                        camera.zoomLevel += 1
                    }
                }
                .buttonStyle(.borderedProminent)
                .padding()
            }
    }
}
