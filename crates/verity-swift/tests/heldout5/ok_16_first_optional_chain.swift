import Foundation
import CoreLocation

struct Trip {
    var name: String
    var stops: [CLLocation]
}

func summary(of trips: [Trip]) -> String {
    let firstName = trips.first?.name.uppercased() ?? "NONE"
    let lastLatitude = trips.last?.stops.last?.coordinate.latitude ?? 0
    let startAltitude = trips.first?.stops.first?.altitude
    let longest = trips.max { $0.stops.count < $1.stops.count }?.name
    let distance = trips.first.map { trip in
        zip(trip.stops, trip.stops.dropFirst()).reduce(0) { $0 + $1.0.distance(from: $1.1) }
    }
    return "\(firstName) \(lastLatitude) \(startAltitude ?? 0) \(longest ?? "-") \(distance ?? 0)"
}
