import Foundation

struct PriceQuote: Sendable {
    let symbol: String
    let price: Decimal
}

protocol QuoteSource: Sendable {
    func quote(for symbol: String) async throws -> PriceQuote
}

func quotes(for symbols: [String], from source: some QuoteSource) async throws -> [String: Decimal] {
    try await withThrowingTaskGroup(of: PriceQuote.self) { group in
        for symbol in symbols {
            group.addTask { try await source.quote(for: symbol) }
        }
        var table: [String: Decimal] = [:]
        for try await quote in group {
            table[quote.symbol] = quote.price
            if table.count == 50 {
                group.cancelAll()
            }
        }
        return table
    }
}
