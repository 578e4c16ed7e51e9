import CoreLocation

struct PlaceLabel {
    static func make(from placemarks: [CLPlacemark]) -> String {
        guard let placemark = placemarks.first else { return "" }
        let parts = [placemark.subThoroughfare, placemark.thoroughfare, placemark.locality]
        let street = parts.compactMap { $0 }.joined(separator: " ")
        if let country = placemarks.first?.country, !street.isEmpty {
            return "\(street), \(country)"
        }
        return placemarks.last?.name ?? street
    }

    static func lookup(_ location: CLLocation) async -> String {
        let placemarks = (try? await CLGeocoder().reverseGeocodeLocation(location)) ?? []
        return make(from: placemarks)
    }
}
