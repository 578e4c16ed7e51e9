import SwiftUI
import Charts

struct DailySteps: Identifiable {
    let day: Date
    let steps: Int
    var id: Date { day }
}

struct WeeklyStepsChart: View {
    let days: [DailySteps]
    let goal: Int

    var body: some View {
        Chart {
            ForEach(days) { entry in
                BarMark(
                    x: .value("Day", entry.day, unit: .day),
                    y: .value("Steps", entry.steps)
                )
                .cornerRadius(4)
                .foregroundStyle(entry.steps >= goal ? Color.green : Color.blue)
            }
            RuleMark(y: .value("Goal", goal))
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
    }
}
