import Foundation

struct SearchClient {
    func makeURL(term: String, page: Int) throws -> URL {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "itunes.apple.com"
        components.path = "/search"
        components.queryItems = [
            URLQueryItem(name: "term", value: term),
            URLQueryItem(name: "media", value: "music"),
            URLQueryItem(name: "offset", value: String(page * 25))
        ]
        guard let url = components.url else {
            throw URLError(.badURL)
        }
        return url
    }

    func search(_ term: String) async throws -> Data {
        let (data, _) = try await URLSession.shared.data(from: try makeURL(term: term, page: 0))
        return data
    }
}
