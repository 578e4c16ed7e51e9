import SwiftUI
import MapKit

struct TrailMap: View {
    let trail: [CLLocationCoordinate2D]
    @State private var position: MapCameraPosition = .automatic

    var body: some View {
        Map(position: $position) {
            if let start = trail.first {
                Marker("Start", systemImage: "flag", coordinate: start)
                    .tint(.green)
            }
            if let end = trail.last {
                Annotation("Summit", coordinate: end, anchor: .bottom) {
                    Image(systemName: "mountain.2.fill")
                        .padding(6)
                        .background(.orange, in: .circle)
                }
            }
            MapPolyline(coordinates: trail)
                .stroke(.blue, lineWidth: 4)
            UserAnnotation()
        }
        .mapStyle(.hybrid(elevation: .realistic))
        .mapControls {
            MapUserLocationButton()
            MapCompass()
            MapScaleView()
        }
    }
}
