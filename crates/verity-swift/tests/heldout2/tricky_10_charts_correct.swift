import SwiftUI
import Charts

struct DailyTotal: Identifiable {
    let id = UUID()
    let date: Date
    let total: Double
}

struct WeeklyChart: View {
    let totals: [DailyTotal]
    let goal: Double

    var body: some View {
        Chart {
            ForEach(totals) { day in
                BarMark(
                    x: .value("Day", day.date, unit: .day),
                    y: .value("Total", day.total)
                )
                .foregroundStyle(.blue.gradient)
                LineMark(
                    x: .value("Day", day.date, unit: .day),
                    y: .value("Total", day.total)
                )
                .interpolationMethod(.catmullRom)
            }
            RuleMark(y: .value("Goal", goal))
                .lineStyle(StrokeStyle(lineWidth: 1, dash: [4]))
        }
        .chartXAxis {
            AxisMarks(values: .stride(by: .day)) { _ in
                AxisValueLabel(format: .dateTime.weekday(.abbreviated))
            }
        }
        .chartLegend(.hidden)
    }
}
