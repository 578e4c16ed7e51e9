import CoreLocation
import SwiftUI

struct LocationGate: View {
    @State private var allowed = false

    var body: some View {
        Text(allowed ? "Location on" : "Location off")
            .onAppear {
                let status = CLLocationManager.authorizationStatus()
                allowed = status == .authorizedWhenInUse || status == .authorizedAlways
            }
    }
}
