import Foundation

struct Transaction: Identifiable, Codable {
    let id: UUID
    let merchant: String
    let amount: Decimal
    let date: Date
}

struct Ledger {
    var transactions: [Transaction]

    func monthlyTotals(calendar: Calendar = .current) -> [DateComponents: Decimal] {
        Dictionary(grouping: transactions) { transaction in
            calendar.dateComponents([.year, .month], from: transaction.date)
        }
        .mapValues { items in
            items.reduce(0) { $0 + $1.amount }
        }
    }

    func topMerchants(limit: Int) -> [String] {
        let counts = transactions.reduce(into: [String: Int]()) { partial, transaction in
            partial[transaction.merchant, default: 0] += 1
        }
        return counts
            .sorted { lhs, rhs in lhs.value > rhs.value }
            .prefix(limit)
            .map { pair in pair.key.capitalizedFirst() }
    }
}
