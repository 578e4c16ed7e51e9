import Foundation

struct Expense {
    let amount: Double
    let category: String?
    let date: Date
}

func totalsByDay(_ expenses: [Expense]) -> [(day: Date, total: Double)] {
    let calendar = Calendar.current
    let grouped = Dictionary(grouping: expenses) { calendar.startOfDay(for: $0.date) }
    return grouped
        .mapValues { items in items.reduce(0) { $0 + $1.amount } }
        .sorted { $0.key < $1.key }
        .map { (day: $0.key, total: $0.value) }
}

func categories(_ expenses: [Expense]) -> [String: Int] {
    var counts: [String: Int] = [:]
    for name in expenses.compactMap(\.category) {
        counts[name, default: 0] += 1
    }
    return counts
}

func firstLarge(_ expenses: [Expense]) -> Expense? {
    expenses.first(where: { $0.amount > 500 })
}
