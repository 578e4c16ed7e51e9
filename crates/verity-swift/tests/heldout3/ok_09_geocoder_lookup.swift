import CoreLocation

struct AddressLookup {
    private let geocoder = CLGeocoder()

    func cityName(at location: CLLocation) async -> String? {
        let placemarks = try? await geocoder.reverseGeocodeLocation(location)
        guard let placemark = placemarks?.first else { return nil }
        return [placemark.locality, placemark.country]
            .compactMap { $0 }
            .joined(separator: ", ")
    }

    func coordinate(for address: String) async throws -> CLLocationCoordinate2D? {
        let results = try await geocoder.geocodeAddressString(address)
        return results.first?.location?.coordinate
    }
}
