import Foundation

struct WeatherResponse: Decodable {
    struct Current: Decodable {
        let temperature: Double
        let windspeed: Double
    }
    let current_weather: Current
}

final class WeatherService {
    private let session: URLSession
    private let decoder = JSONDecoder()

    init(session: URLSession = .shared) {
        self.session = session
    }

    func temperature(lat: Double, lon: Double) async throws -> Double {
        var components = URLComponents(string: "https://api.open-meteo.com/v1/forecast")!
        components.queryItems = [
            URLQueryItem(name: "latitude", value: String(lat)),
            URLQueryItem(name: "longitude", value: String(lon)),
            URLQueryItem(name: "current_weather", value: "true"),
        ]
        guard let url = components.url else { throw URLError(.badURL) }
        let (data, response) = try await session.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw URLError(.badServerResponse)
        }
        return try decoder.decode(WeatherResponse.self, from: data).current_weather.temperature
    }
}
