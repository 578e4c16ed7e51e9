import Foundation

actor PriceChecker {
    private var lastPrices: [String: Double] = [:]

    func fetchPrice(for symbol: String) async throws -> Double {
        try await Task.sleep(for: .milliseconds(200))
        return Double(symbol.count) * 10.5
    }

    func firstPriceAbove(_ threshold: Double, symbols: [String]) async -> (String, Double)? {
        await withTaskGroup(of: (String, Double)?.self) { group in
            for symbol in symbols {
                group.addTask {
                    guard let price = try? await self.fetchPrice(for: symbol) else { return nil }
                    return (symbol, price)
                }
            }
            while let result = await group.next() {
                if let hit = result, hit.1 > threshold {
                    group.cancelAllTasks()
                    return hit
                }
            }
            return nil
        }
    }

    func remember(_ symbol: String, price: Double) {
        lastPrices[symbol] = price
    }
}
