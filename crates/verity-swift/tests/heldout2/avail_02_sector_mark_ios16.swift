import SwiftUI
import Charts

struct Spending: Identifiable {
    let id = UUID()
    let category: String
    let amount: Double
}

struct SpendingPie: View {
    let data: [Spending]

    var body: some View {
        Chart(data) { item in
            SectorMark(
                angle: .value("Amount", item.amount),
                innerRadius: .ratio(0.6)
            )
            .foregroundStyle(by: .value("Category", item.category))
        }
        .frame(height: 260)
    }
}
