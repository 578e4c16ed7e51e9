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
                x: .value("Hour", point.hour, unit: .hour),
                y: .value("°C", point.celsius)
            )
            .interpolation(.catmullRom)
            .lineStyle(StrokeStyle(lineWidth: 2))
            .symbol(.circle)

            AreaMark(
                x: .value("Hour", point.hour, unit: .hour),
                y: .value("°C", point.celsius)
            )
            .foregroundStyle(.blue.opacity(0.15))
        }
        .chartYAxisLabel("Temperature")
    }
}
