import Foundation

struct PriceQuote: Sendable {
    let symbol: String
    let price: Double
}

actor QuoteService {
    func quote(for symbol: String) async throws -> PriceQuote {
        let url = URL(string: "https://quotes.example.com/\(symbol)")!
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONDecoder().decode(PriceQuote.self, from: data)
    }

    func quotes(for symbols: [String]) async throws -> [PriceQuote] {
        try await withThrowingTaskGroup(of: PriceQuote.self) { group in
            for symbol in symbols {
                group.addTask { try await self.quote(for: symbol) }
            }
            let all = try await group.collect()
            return all.sorted { $0.symbol < $1.symbol }
        }
    }
}

extension PriceQuote: Decodable {}
