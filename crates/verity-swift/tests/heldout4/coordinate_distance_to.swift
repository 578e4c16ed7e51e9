import CoreLocation

struct Trip {
    let start: CLLocationCoordinate2D
    let end: CLLocationCoordinate2D
}

func kilometres(of trip: Trip) -> Double {
    let start = trip.start
    let end = trip.end
    let metres = start.distance(to: end)
    return metres / 1000
}
