import CoreLocation

struct AddressLookup {
    private let geocoder = CLGeocoder()

    func cityName(for location: CLLocation) async -> String? {
        guard let placemarks = try? await geocoder.reverseGeocodeLocation(location) else {
            return nil
        }
        return placemarks.first?.city
    }

    func countryCode(for location: CLLocation) async -> String? {
        let placemarks = try? await geocoder.reverseGeocodeLocation(location)
        return placemarks?.first?.isoCountryCode
    }
}
