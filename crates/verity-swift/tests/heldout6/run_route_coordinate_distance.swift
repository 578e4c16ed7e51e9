import CoreLocation

struct RunRoute {
    var points: [CLLocationCoordinate2D] = []

    var totalMeters: CLLocationDistance {
        guard points.count > 1 else { return 0 }
        var total: CLLocationDistance = 0
        for index in 1..<points.count {
            total += points[index - 1].distance(to: points[index])
        }
        return total
    }

    mutating func append(_ coordinate: CLLocationCoordinate2D) {
        guard CLLocationCoordinate2DIsValid(coordinate) else { return }
        points.append(coordinate)
    }
}
