import Foundation

struct Quote: Decodable {
    let symbol: String
    let price: Double
}

func fetchQuotes(symbols: [String]) async throws -> [Quote] {
    try await withThrowingTaskGroup(of: Quote.self) { group in
        for symbol in symbols {
            group.addTask {
                let url = URL(string: "https://example.com/quote/\(symbol)")!
                let (data, _) = try await URLSession.shared.data(from: url)
                return try JSONDecoder().decode(Quote.self, from: data)
            }
        }
        return try await group.collectAll()
    }
}
