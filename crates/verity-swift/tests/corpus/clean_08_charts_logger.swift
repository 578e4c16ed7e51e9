import SwiftUI
import Charts
import os

struct Sale: Identifiable {
    let id = UUID()
    let month: String
    let amount: Double
}

private let logger = Logger(subsystem: "com.example.app", category: "charts")

struct SalesChart: View {
    let sales: [Sale]

    var body: some View {
        Chart(sales) { sale in
            BarMark(
                x: .value("Month", sale.month),
                y: .value("Amount", sale.amount)
            )
            .foregroundStyle(.tint)
        }
        .chartYAxis {
            AxisMarks(position: .leading)
        }
        .frame(height: 240)
        .onAppear {
            logger.info("showing \(sales.count) sales")
        }
    }
}
