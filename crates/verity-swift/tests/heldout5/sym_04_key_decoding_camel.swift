import Foundation

struct GitHubRepo: Decodable {
    let fullName: String
    let stargazersCount: Int
    let updatedAt: Date
}

struct RepoService {
    private let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromCamelCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    func repos(for user: String) async throws -> [GitHubRepo] {
        let url = URL(string: "https://api.github.com/users/\(user)/repos")!
        let (data, _) = try await URLSession.shared.data(from: url)
        return try decoder.decode([GitHubRepo].self, from: data)
    }
}
