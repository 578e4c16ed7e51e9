import SwiftUI
import Charts

struct DailySteps: Identifiable {
    let id = UUID()
    let day: Date
    let steps: Int
}

struct StepsChart: View {
    let data: [DailySteps]

    var body: some View {
        Chart(data) { item in
            BarMark(
                x: .value("Day", item.day, unit: .day),
                y: .value("Steps", item.steps)
            )
            .foregroundStyle(.blue.gradient)
            RuleMark(y: .value("Goal", 8_000))
                .lineStyle(StrokeStyle(lineWidth: 1, dash: [4]))
                .foregroundStyle(.secondary)
        }
        .chartXAxis {
            AxisMarks(values: .stride(by: .day)) { _ in
                AxisValueLabel(format: .dateTime.weekday(.narrow))
            }
        }
        .frame(height: 220)
        .padding()
    }
}
