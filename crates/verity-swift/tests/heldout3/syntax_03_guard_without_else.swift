import Foundation

struct Weather: Decodable {
    let temperature: Double
    let summary: String
}

final class WeatherClient {
    func current(city: String) async throws -> Weather {
        guard let url = URL(string: "https://api.example.com/weather?city=\(city)") {
            throw URLError(.badURL)
        }
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONDecoder().decode(Weather.self, from: data)
    }
}
