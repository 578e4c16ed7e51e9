import SwiftUI
import Charts

struct DailySteps: Identifiable {
    let id = UUID()
    let day: String
    let steps: Int
    let source: String
}

struct WeeklyStepsChart: View {
    let data: [DailySteps]

    var body: some View {
        Chart(data) { item in
            BarMark(
                x: .value("Day", item.day),
                y: .value("Steps", item.steps)
            )
            .foregroundStyle(by: .value("Source", item.source))
            .cornerRadius(4)

            LineMark(
                x: .value("Day", item.day),
                y: .value("Steps", item.steps)
            )
            .interpolationMethod(.catmullRom)
            .symbol(.circle)
        }
        .chartYAxis {
            AxisMarks(position: .leading)
        }
        .frame(height: 220)
    }
}
