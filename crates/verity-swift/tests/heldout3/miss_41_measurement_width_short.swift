import Foundation

struct RunSummary {
    let meters: Double

    var distanceText: String {
        let distance = Measurement(value: meters / 1_000, unit: UnitLength.kilometers)
        return distance.formatted(.measurement(width: .short, usage: .road))
    }
}
