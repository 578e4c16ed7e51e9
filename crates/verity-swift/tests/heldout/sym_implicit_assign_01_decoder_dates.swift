import Foundation

struct Article: Decodable, Identifiable {
    let id: Int
    let title: String
    let publishedAt: Date
    let authorName: String
}

enum FeedError: Error {
    case badStatus(Int)
}

final class FeedClient {
    private let session: URLSession
    private let baseURL = URL(string: "https://api.example.com")!

    init(session: URLSession = .shared) {
        self.session = session
    }

    func latestArticles() async throws -> [Article] {
        let url = baseURL.appending(path: "articles")
        let (data, response) = try await session.data(from: url)
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw FeedError.badStatus(http.statusCode)
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601WithFractionalSeconds
        return try decoder.decode([Article].self, from: data)
    }
}
