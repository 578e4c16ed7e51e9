import Foundation

struct Expense: Hashable {
    let category: String
    let amount: Decimal
    let date: Date
}

struct ExpenseReport {
    let expenses: [Expense]

    var byCategory: [String: [Expense]] {
        Dictionary(grouping: expenses, by: \.category)
    }

    var totals: [(String, Decimal)] {
        byCategory
            .mapValues { $0.reduce(Decimal.zero) { $0 + $1.amount } }
            .sorted(by: { $0.value > $1.value })
            .map { ($0.key, $0.value) }
    }

    var distinctCategories: [String] {
        Array(Set(expenses.map(\.category))).sorted()
    }

    var recentAmounts: [Decimal] {
        expenses
            .filter { $0.date > Date.now.addingTimeInterval(-7 * 86_400) }
            .compactMap { $0.amount > 0 ? $0.amount : nil }
            .prefix(10)
            .map { $0 }
    }

    var biggest: Expense? {
        expenses.max(by: { $0.amount < $1.amount })
    }
}
