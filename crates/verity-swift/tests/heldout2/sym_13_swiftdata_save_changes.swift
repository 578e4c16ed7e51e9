import SwiftUI
import SwiftData

@Model
final class Expense {
    var title: String
    var amount: Double
    var date: Date

    init(title: String, amount: Double, date: Date = .now) {
        self.title = title
        self.amount = amount
        self.date = date
    }
}

struct ExpenseListView: View {
    @Environment(\.modelContext) private var modelContext
    @Query(sort: \Expense.date, order: .reverse) private var expenses: [Expense]

    var body: some View {
        List {
            ForEach(expenses) { expense in
                HStack {
                    Text(expense.title)
                    Spacer()
                    Text(expense.amount, format: .currency(code: "USD"))
                }
            }
            .onDelete { offsets in
                for index in offsets {
                    modelContext.delete(expenses[index])
                }
                try? modelContext.saveChanges()
            }
        }
    }
}
