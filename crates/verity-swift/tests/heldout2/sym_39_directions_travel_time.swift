import MapKit

struct CommuteEstimator {
    func minutes(from source: CLLocationCoordinate2D, to destination: CLLocationCoordinate2D) async throws -> Int {
        let request = MKDirections.Request()
        request.source = MKMapItem(placemark: MKPlacemark(coordinate: source))
        request.destination = MKMapItem(placemark: MKPlacemark(coordinate: destination))
        request.transportType = .automobile
        let response = try await MKDirections(request: request).calculate()
        guard let route = response.routes.first else { return 0 }
        return Int(route.travelTime / 60)
    }
}
