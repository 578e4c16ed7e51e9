import Foundation

extension URLSession {
    func decoded<T: Decodable>(_ type: T.Type, from url: URL) async throws -> T {
        let (data, response) = try await data(from: url)
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw URLError(.badServerResponse)
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: data)
    }
}

struct Weather: Decodable {
    let temperature: Double
    let windSpeed: Double
}

func currentWeather() async throws -> Weather {
    try await URLSession.shared.decoded(Weather.self, from: URL(string: "https://api.example.com/weather")!)
}
