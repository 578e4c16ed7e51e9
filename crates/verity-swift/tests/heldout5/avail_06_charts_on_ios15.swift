import SwiftUI
import Charts

struct Sale: Identifiable {
    let id = UUID()
    let month: String
    let revenue: Double
}

struct RevenueChart: View {
    let sales: [Sale]

    var body: some View {
        VStack(alignment: .leading) {
            Text("Revenue").font(.headline)
            Chart(sales) { sale in
                BarMark(x: .value("Month", sale.month), y: .value("Revenue", sale.revenue))
            }
            .frame(height: 200)
        }
        .padding()
    }
}
