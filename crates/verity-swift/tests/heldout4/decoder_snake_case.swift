import Foundation

struct GitHubRepo: Decodable, Identifiable {
    let id: Int
    let fullName: String
    let stargazersCount: Int
    let createdAt: Date
}

enum RepoService {
    static func fetchRepos(for user: String) async throws -> [GitHubRepo] {
        let url = URL(string: "https://api.github.com/users/\(user)/repos")!
        let (data, response) = try await URLSession.shared.data(from: url)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw URLError(.badServerResponse)
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([GitHubRepo].self, from: data)
    }
}
