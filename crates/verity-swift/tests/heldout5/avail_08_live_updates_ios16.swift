import CoreLocation

final class CommuteLogger {
    private(set) var distance: CLLocationDistance = 0
    private var last: CLLocation?

    func record() async throws {
        let updates = CLLocationUpdate.liveUpdates(.automotiveNavigation)
        for try await update in updates {
            guard let location = update.location else { continue }
            if let last {
                distance += location.distance(from: last)
            }
            last = location
        }
    }
}
