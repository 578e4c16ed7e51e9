import Foundation

struct Transaction: Identifiable {
    let id = UUID()
    let category: String
    let amount: Decimal
    let date: Date
}

struct Summary {
    let transactions: [Transaction]

    var totalsByCategory: [(category: String, total: Decimal)] {
        Dictionary(grouping: transactions, by: \.category)
            .mapValues { items in items.reduce(0) { $0 + $1.amount } }
            .sorted { $0.value > $1.value }
            .map { (category: $0.key, total: $0.value) }
    }

    var countByMonth: [Int: Int] {
        transactions.reduce(into: [:]) { counts, transaction in
            let month = Calendar.current.component(.month, from: transaction.date)
            counts[month, default: 0] += 1
        }
    }
}
