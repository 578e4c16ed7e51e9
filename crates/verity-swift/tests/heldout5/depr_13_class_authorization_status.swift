import CoreLocation
import SwiftUI

struct LocationPermissionBanner: View {
    @State private var message = ""

    var body: some View {
        Text(message)
            .font(.footnote)
            .padding()
            .onAppear(perform: refresh)
    }

    private func refresh() {
        switch CLLocationManager.authorizationStatus() {
        case .denied, .restricted:
            message = "Location access is off. Enable it in Settings."
        case .notDetermined:
            message = "We'll ask for your location when you start a run."
        default:
            message = ""
        }
    }
}
