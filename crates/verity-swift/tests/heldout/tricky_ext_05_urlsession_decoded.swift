import Foundation

enum APIError: Error {
    case status(Int)
}

extension URLSession {
    func decoded<T: Decodable>(
        _ type: T.Type,
        from url: URL,
        decoder: JSONDecoder = JSONDecoder()
    ) async throws -> T {
        let (data, response) = try await data(from: url)
        if let http = response as? HTTPURLResponse, http.statusCode >= 400 {
            throw APIError.status(http.statusCode)
        }
        return try decoder.decode(T.self, from: data)
    }
}

struct Repo: Decodable {
    let name: String
    let stargazersCount: Int
}

func topRepos(of user: String) async throws -> [Repo] {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let url = URL(string: "https://api.github.com/users/\(user)/repos")!
    let repos = try await URLSession.shared.decoded([Repo].self, from: url, decoder: decoder)
    return repos.sorted { $0.stargazersCount > $1.stargazersCount }
}
