import CoreLocation

struct CityResolver {
    private let geocoder = CLGeocoder()

    func cityName(for location: CLLocation) async -> String {
        do {
            let placemarks = try await geocoder.reverseGeocodeLocation(location)
            let placemark = placemarks.first
            return placemark?.city ?? placemark?.country ?? "Unknown"
        } catch {
            return "Unknown"
        }
    }
}
