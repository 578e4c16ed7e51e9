import CoreLocation
import SwiftUI

struct LocationPermissionBanner: View {
    private var status: CLAuthorizationStatus {
        CLLocationManager.authorizationStatus()
    }

    var body: some View {
        switch status {
        case .denied, .restricted:
            Label("Location access is off. Enable it in Settings.", systemImage: "location.slash")
                .padding()
                .background(.orange.opacity(0.2), in: RoundedRectangle(cornerRadius: 10))
        default:
            EmptyView()
        }
    }
}
