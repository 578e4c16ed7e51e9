import Foundation

struct Transaction {
    let amount: Decimal
    let date: Date
}

@Observable
final class LedgerViewModel {
    var transactions: [Transaction] = []

    var newestFirst: [Transaction] {
        transactions.sorted { $0.date.isBefore($1.date) == false }
    }
}
