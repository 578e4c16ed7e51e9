import SwiftUI
import SwiftData

@Model
final class Expense {
    var title: String
    var amount: Double
    var date: Date
    var category: String

    init(title: String, amount: Double, date: Date = .now, category: String) {
        self.title = title
        self.amount = amount
        self.date = date
        self.category = category
    }
}

struct ExpensesView: View {
    @Query private var expenses: [Expense]
    @Environment(\.modelContext) private var modelContext

    init(category: String, minimum: Double) {
        let predicate = #Predicate<Expense> { expense in
            expense.category == category && expense.amount >= minimum
        }
        _expenses = Query(filter: predicate, sort: [SortDescriptor(\Expense.date, order: .reverse)])
    }

    var body: some View {
        List(expenses) { expense in
            HStack {
                Text(expense.title)
                Spacer()
                Text(expense.amount, format: .currency(code: "EUR"))
            }
        }
        .overlay {
            if expenses.isEmpty {
                ContentUnavailableView("No expenses", systemImage: "creditcard")
            }
        }
    }
}

#Preview {
    ExpensesView(category: "Food", minimum: 5)
        .modelContainer(for: Expense.self, inMemory: true)
}
