import CoreLocation
import SwiftUI

@MainActor
@Observable
final class RunTracker {
    var lastCoordinate: CLLocationCoordinate2D?
    var speeds: [CLLocationSpeed] = []

    func track() async {
        do {
            for try await update in CLLocationUpdate.liveUpdates(.fitness) {
                guard let location = update.location else { continue }
                lastCoordinate = location.coordinate
                speeds.append(max(location.speed, 0))
                if update.isStationary { break }
            }
        } catch {
            lastCoordinate = nil
        }
    }
}
