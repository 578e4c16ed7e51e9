import Foundation

struct Coordinates {
    let latitude: Double
    let longitude: Double
}

func parseCoordinates(_ text: String) -> Coordinates? {
    let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard parts.count == 2 {
        return nil
    }
    guard let lat = Double(parts[0]), let lon = Double(parts[1]) else {
        return nil
    }
    guard (-90...90).contains(lat), (-180...180).contains(lon) else {
        return nil
    }
    return Coordinates(latitude: lat, longitude: lon)
}

print(parseCoordinates("52.52, 13.40") as Any)
