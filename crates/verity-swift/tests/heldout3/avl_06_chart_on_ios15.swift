import SwiftUI
import Charts

struct SleepSample: Identifiable {
    let id = UUID()
    let night: Date
    let hours: Double
}

struct SleepChart: View {
    let samples: [SleepSample]

    var body: some View {
        Chart(samples) { sample in
            LineMark(x: .value("Night", sample.night), y: .value("Hours", sample.hours))
        }
        .frame(height: 200)
    }
}
