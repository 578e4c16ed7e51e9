import MapKit

@MainActor
final class NearbyFinder: ObservableObject {
    @Published var places: [MKMapItem] = []

    func find(_ text: String, around center: CLLocationCoordinate2D) async {
        let request = MKLocalSearch.Request()
        request.naturalLanguageQuery = text
        request.resultTypes = .restaurants
        request.region = MKCoordinateRegion(center: center, latitudinalMeters: 2_000, longitudinalMeters: 2_000)
        do {
            let response = try await MKLocalSearch(request: request).start()
            places = response.mapItems
        } catch {
            places = []
        }
    }
}
