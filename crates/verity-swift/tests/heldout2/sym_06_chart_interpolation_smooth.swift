import SwiftUI
import Charts

struct StepSample: Identifiable {
    let id = UUID()
    let day: Date
    let steps: Int
}

struct StepsChart: View {
    let samples: [StepSample]

    var body: some View {
        Chart(samples) { sample in
            LineMark(
                x: .value("Day", sample.day, unit: .day),
                y: .value("Steps", sample.steps)
            )
            .interpolationMethod(.smooth)
            .symbol(.circle)
        }
        .chartYAxis {
            AxisMarks(position: .leading)
        }
        .frame(height: 220)
    }
}
