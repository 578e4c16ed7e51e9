import MapKit

struct CommuteEstimate {
    let minutes: Int
    let kilometers: Double
}

func estimateCommute(from start: CLLocationCoordinate2D, to end: CLLocationCoordinate2D) async throws -> CommuteEstimate? {
    let request = MKDirections.Request()
    request.source = MKMapItem(placemark: MKPlacemark(coordinate: start))
    request.destination = MKMapItem(placemark: MKPlacemark(coordinate: end))
    request.transportType = .transit
    request.requestsAlternateRoutes = false
    let response = try await MKDirections(request: request).calculate()
    guard let route = response.routes.first else { return nil }
    return CommuteEstimate(minutes: Int(route.expectedTravelTime / 60), kilometers: route.distance / 1_000)
}
