import SwiftUI
import MapKit

struct OfficeMap: View {
    let office = CLLocationCoordinate2D(latitude: 51.5072, longitude: -0.1276)

    var body: some View {
        Map(initialPosition: .region(MKCoordinateRegion(
            center: office,
            span: MKCoordinateSpan(latitudeDelta: 0.02, longitudeDelta: 0.02)
        ))) {
            Marker("Office", coordinate: office)
        }
        .frame(height: 240)
    }
}
