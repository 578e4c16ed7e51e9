import Foundation

struct QuoteService {
    let endpoint: URL

    func randomQuote() async throws -> String {
        let (data, response) = try await URLSession.shared.data(from: endpoint)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 {
            throw URLError(.badServerResponse)
        }
        let decoded = try JSONDecoder().decode([String: String].self, from: data)
        return decoded["quote"] ?? ""
    }
}
