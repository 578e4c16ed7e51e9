import Foundation

struct WeatherReport: Codable {
    let cityName: String
    let observedAt: Date
    let temperatureCelsius: Double
    let windSpeedKph: Double?
}

enum WeatherCoding {
    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        decoder.dataDecodingStrategy = .base64
        return decoder
    }

    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func roundTrip(_ report: WeatherReport) throws -> WeatherReport {
        let data = try makeEncoder().encode(report)
        return try makeDecoder().decode(WeatherReport.self, from: data)
    }
}
