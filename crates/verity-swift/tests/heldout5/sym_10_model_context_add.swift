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

struct AddExpenseView: View {
    @Environment(\.modelContext) private var modelContext
    @Environment(\.dismiss) private var dismiss
    @State private var title = ""
    @State private var amount = 0.0

    var body: some View {
        Form {
            TextField("Title", text: $title)
            TextField("Amount", value: $amount, format: .number)
                .keyboardType(.decimalPad)
            Button("Save") {
                modelContext.add(Expense(title: title, amount: amount))
                dismiss()
            }
            .disabled(title.isEmpty)
        }
    }
}
