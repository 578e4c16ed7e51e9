import SwiftUI
import Charts

struct CategorySpend: Identifiable {
    let id = UUID()
    let category: String
    let amount: Double
}

struct SpendingDonut: View {
    let data: [CategorySpend]

    var body: some View {
        Chart(data) { item in
            SectorMark(
                angle: .value("Amount", item.amount),
                innerRadius: .ratio(0.6),
                angularInset: 1.5
            )
            .foregroundStyle(by: .value("Category", item.category))
        }
        .chartLegend(position: .bottom)
        .frame(height: 240)
    }
}
