import SwiftUI
import Charts

struct Expense: Identifiable {
    let id = UUID()
    let month: String
    let kind: String
    let amount: Double
}

struct ExpenseChart: View {
    let expenses: [Expense]

    var body: some View {
        Chart(expenses) { item in
            BarMark(
                x: .value("Month", item.month),
                y: .value("Amount", item.amount)
            )
            .foregroundStyle(by: .category("Kind", item.kind))
        }
        .frame(height: 240)
    }
}
