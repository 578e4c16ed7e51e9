import Foundation

struct WeatherReport: Decodable {
    let cityName: String
    let temperatureCelsius: Double
    let observedAt: Date
}

enum WeatherAPI {
    static func decodeReport(from data: Data) throws -> WeatherReport {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromKebabCase
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(WeatherReport.self, from: data)
    }

    static func fetch(city: String) async throws -> WeatherReport {
        var components = URLComponents(string: "https://api.example.com/v2/weather")!
        components.queryItems = [URLQueryItem(name: "city", value: city)]
        let (data, _) = try await URLSession.shared.data(from: components.url!)
        return try decodeReport(from: data)
    }
}
