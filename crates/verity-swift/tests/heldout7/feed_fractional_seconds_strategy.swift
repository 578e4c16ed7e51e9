import Foundation

struct FeedItem: Codable, Hashable {
    let id: String
    let headline: String
    let publishedAt: Date
}

final class FeedLoader {
    private let session: URLSession
    private let decoder: JSONDecoder

    init(session: URLSession = .shared) {
        self.session = session
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601WithFractionalSeconds
        self.decoder = decoder
    }

    func load(from url: URL) async throws -> [FeedItem] {
        let (data, response) = try await session.data(from: url)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw URLError(.badServerResponse)
        }
        return try decoder.decode([FeedItem].self, from: data)
    }
}
