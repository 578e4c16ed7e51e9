import Foundation

enum APIError: Error {
    case status(Int)
    case notHTTP
}

struct Repo: Decodable {
    let name: String
    let stargazersCount: Int
}

func fetchRepos(user: String) async throws -> [Repo] {
    let url = URL(string: "https://api.github.com/users/\(user)/repos")!
    let (data, response) = try await URLSession.shared.data(from: url)
    guard let http = response as? HTTPURLResponse else { throw APIError.notHTTP }
    guard (200..<300).contains(http.statusCode) else { throw APIError.status(http.statusCode) }
    if response.expectedContentLength == 0 || response.mimeType != "application/json" {
        return []
    }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode([Repo].self, from: data)
}
