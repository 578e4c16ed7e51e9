import Foundation

struct ManifestLoader {
    let url: URL

    func load() async throws -> [String: String] {
        let result = try await URLSession.shared.data(from: url)
        guard let http = result.response as? HTTPURLResponse, http.statusCode == 200 else {
            throw URLError(.badServerResponse)
        }
        return try JSONDecoder().decode([String: String].self, from: result.0)
    }
}
