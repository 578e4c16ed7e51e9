import Foundation

struct Article: Decodable, Identifiable {
    let id: Int
    let title: String
}

final class ArticleService {
    private let baseURL = URL(string: "https://api.example.com")!

    func fetchArticles() async throws -> [Article] {
        let url = baseURL.appending(path: "articles")
        let (data, response) = try await URLSession.shared.data(from: url)
        guard response.statusCode == 200 else {
            throw URLError(.badServerResponse)
        }
        return try JSONDecoder().decode([Article].self, from: data)
    }
}
