import Foundation

struct Repository: Decodable, Identifiable {
    let id: Int
    let fullName: String
    let stargazersCount: Int
    let updatedAt: Date
}

enum GitHubAPI {
    static func repositories(of user: String) async throws -> [Repository] {
        let url = URL(string: "https://api.github.com/users/\(user)/repos?per_page=50")!
        var request = URLRequest(url: url)
        request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
        let (data, _) = try await URLSession.shared.data(for: request)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertToSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([Repository].self, from: data)
    }
}
