import CoreLocation
import SwiftUI

@available(iOS 17.0, *)
final class LiveRunTracker {
    private(set) var points: [CLLocationCoordinate2D] = []

    func run() async throws {
        for try await update in CLLocationUpdate.liveUpdates(.fitness) {
            if let location = update.location {
                points.append(location.coordinate)
            }
            if update.isStationary { break }
        }
    }
}

struct RunButton: View {
    var body: some View {
        Button("Start run") {
            if #available(iOS 17.0, *) {
                Task { try? await LiveRunTracker().run() }
            } else {
                let manager = CLLocationManager()
                manager.startUpdatingLocation()
            }
        }
        .buttonStyle(.borderedProminent)
    }
}
