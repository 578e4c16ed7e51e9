import CoreLocation

final class AddressResolver {
    private let geocoder = CLGeocoder()

    func address(for location: CLLocation) async throws -> String {
        let placemarks = try await geocoder.reverseGeocodeLocation(location)
        guard let line = placemarks.first?.address else {
            return "Unknown location"
        }
        return line
    }
}
