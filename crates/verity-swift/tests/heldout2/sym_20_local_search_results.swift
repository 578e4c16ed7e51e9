import MapKit

struct PlaceSearch {
    func search(_ query: String, near region: MKCoordinateRegion) async throws -> [MKMapItem] {
        let request = MKLocalSearch.Request()
        request.naturalLanguageQuery = query
        request.region = region
        let search = MKLocalSearch(request: request)
        let response = try await search.start()
        return response.results
    }
}
