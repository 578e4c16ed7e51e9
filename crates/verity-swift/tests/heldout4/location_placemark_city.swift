import CoreLocation

struct AddressLookup {
    private let geocoder = CLGeocoder()

    func city(for location: CLLocation) async throws -> String? {
        let placemarks = try await geocoder.reverseGeocodeLocation(location)
        return placemarks.first?.city
    }
}
