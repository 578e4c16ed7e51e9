import SwiftUI
import Charts

struct DailySale: Identifiable {
    let id = UUID()
    let day: Date
    let amount: Double
    let channel: String
}

struct SalesChart: View {
    let sales: [DailySale]
    let target: Double

    var body: some View {
        Chart {
            ForEach(sales) { sale in
                BarMark(x: .value("Day", sale.day, unit: .day),
                        y: .value("Sales", sale.amount))
                    .foregroundStyle(by: .value("Channel", sale.channel))
            }
            RuleMark(y: .value("Target", target))
                .lineStyle(StrokeStyle(lineWidth: 1, dash: [4, 4]))
                .annotation(position: .top, alignment: .leading) {
                    Text("Target").font(.caption2)
                }
        }
        .chartXAxis {
            AxisMarks(values: .stride(by: .day)) { _ in
                AxisGridLine()
                AxisValueLabel(format: .dateTime.weekday(.abbreviated))
            }
        }
        .frame(height: 260)
    }
}
