import Foundation

struct WeatherReport: Decodable {
    let cityName: String
    let temperatureCelsius: Double
    let observedAt: Date
}

final class WeatherClient {
    private let session: URLSession

    init(session: URLSession = .shared) {
        self.session = session
    }

    func report(for city: String) async throws -> WeatherReport {
        var components = URLComponents(string: "https://example.com/api/weather")!
        components.queryItems = [URLQueryItem(name: "city", value: city)]
        let (data, _) = try await session.data(from: components.url!)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromCamelCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(WeatherReport.self, from: data)
    }
}
