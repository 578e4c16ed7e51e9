import SwiftUI
import Charts

struct BudgetSlice: Identifiable {
    let id = UUID()
    let category: String
    let amount: Double
}

struct BudgetDonut: View {
    let slices: [BudgetSlice]

    var body: some View {
        Chart(slices) { slice in
            SectorMark(
                angle: .value("Amount", slice.amount),
                innerRadius: .ratio(0.6),
                angularInset: 1.5
            )
            .foregroundStyle(by: .value("Category", slice.category))
        }
        .frame(width: 200, height: 200)
    }
}
