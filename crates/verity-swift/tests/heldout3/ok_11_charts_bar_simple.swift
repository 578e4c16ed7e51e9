import SwiftUI
import Charts

struct StepDay: Identifiable {
    let id = UUID()
    let weekday: String
    let steps: Int
}

struct WeeklySteps: View {
    let days: [StepDay]

    var body: some View {
        Chart(days) { day in
            BarMark(x: .value("Day", day.weekday), y: .value("Steps", day.steps))
                .foregroundStyle(.teal)
                .annotation(position: .top) {
                    Text("\(day.steps)").font(.caption2)
                }
        }
        .chartYAxis(.hidden)
        .frame(height: 220)
        .padding()
    }
}
