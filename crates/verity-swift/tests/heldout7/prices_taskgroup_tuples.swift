import Foundation

struct QuoteClient {
    func price(for symbol: String) async throws -> Double {
        let url = URL(string: "https://api.example.com/quote/\(symbol)")!
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONDecoder().decode(Double.self, from: data)
    }

    func prices(for symbols: [String]) async throws -> [String: Double] {
        try await withThrowingTaskGroup(of: (String, Double).self) { group in
            for symbol in symbols {
                group.addTask {
                    (symbol, try await price(for: symbol))
                }
            }
            var result: [String: Double] = [:]
            result.reserveCapacity(symbols.count)
            for try await (symbol, price) in group {
                result[symbol] = price
            }
            return result
        }
    }
}
