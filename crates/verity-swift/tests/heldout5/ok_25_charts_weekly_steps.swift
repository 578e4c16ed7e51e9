import SwiftUI
import Charts

struct DaySteps: Identifiable {
    let id = UUID()
    let day: Date
    let steps: Int
    let kind: String
}

struct StepsChart: View {
    let data: [DaySteps]

    var body: some View {
        Chart(data) { item in
            BarMark(
                x: .value("Day", item.day, unit: .day),
                y: .value("Steps", item.steps)
            )
            .foregroundStyle(by: .value("Kind", item.kind))
            .cornerRadius(4)

            RuleMark(y: .value("Goal", 8_000))
                .lineStyle(StrokeStyle(lineWidth: 1, dash: [4]))
                .annotation(position: .top, alignment: .leading) {
                    Text("Goal").font(.caption2)
                }
        }
        .chartXAxis {
            AxisMarks(values: .stride(by: .day)) { _ in
                AxisValueLabel(format: .dateTime.weekday(.abbreviated))
            }
        }
        .chartYScale(domain: 0...15_000)
        .frame(height: 220)
    }
}
