import Foundation

struct Transaction {
    let amount: Decimal
    let date: Date
    let receipt: URL
}

final class Ledger {
    var items: [Transaction] = []
    let formatter = DateFormatter()

    init() {
        formatter.dateStyle = .medium
        formatter.timeStyle = .none
    }

    var newestFirst: [Transaction] {
        items.sorted { $0.date.compare($1.date) == .orderedDescending }
    }

    var spans: [TimeInterval] {
        zip(items, items.dropFirst()).map { $1.date.timeIntervalSince($0.date) }
    }

    func receiptNames() -> [String] {
        items.map { $0.receipt.lastPathComponent }.filter { !$0.isEmpty }
    }

    var cacheFile: URL {
        URL.cachesDirectory.appending(path: "ledger.json")
    }

    var cacheExtension: String {
        cacheFile.pathExtension
    }
}
