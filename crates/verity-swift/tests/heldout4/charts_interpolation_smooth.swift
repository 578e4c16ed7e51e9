import SwiftUI
import Charts

struct TemperaturePoint: Identifiable {
    let id = UUID()
    let hour: Date
    let celsius: Double
}

struct TemperatureChart: View {
    let points: [TemperaturePoint]

    var body: some View {
        Chart(points) { point in
            LineMark(
                x: .value("Hour", point.hour),
                y: .value("°C", point.celsius)
            )
            .interpolationMethod(.smooth)
        }
        .chartXAxis {
            AxisMarks(values: .stride(by: .hour, count: 3))
        }
    }
}
