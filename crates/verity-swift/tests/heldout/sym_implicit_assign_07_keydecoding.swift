import Foundation

struct WeatherReport: Decodable {
    let cityName: String
    let temperatureCelsius: Double
    let windSpeedKmh: Double
    let observedAt: Date
}

actor WeatherService {
    private var cache: [String: WeatherReport] = [:]
    private let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromKebabCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    func report(for city: String) async throws -> WeatherReport {
        if let cached = cache[city] {
            return cached
        }
        var components = URLComponents(string: "https://weather.example.com/v1/current")!
        components.queryItems = [URLQueryItem(name: "city", value: city)]
        let (data, _) = try await URLSession.shared.data(from: components.url!)
        let report = try decoder.decode(WeatherReport.self, from: data)
        cache[city] = report
        return report
    }
}
