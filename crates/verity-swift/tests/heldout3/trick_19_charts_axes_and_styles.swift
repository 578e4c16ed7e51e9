import SwiftUI
import Charts

struct Reading: Identifiable {
    let id = UUID()
    let day: Date
    let value: Double
    let sensor: String
}

struct ReadingsChart: View {
    let readings: [Reading]

    var body: some View {
        Chart(readings) { reading in
            LineMark(
                x: .value("Day", reading.day, unit: .day),
                y: .value("Value", reading.value)
            )
            .foregroundStyle(by: .value("Sensor", reading.sensor))
            .interpolationMethod(.catmullRom)
            .symbol(.circle)
        }
        .chartYScale(domain: 0...100)
        .chartXAxis {
            AxisMarks(values: .stride(by: .day)) { _ in
                AxisGridLine()
                AxisValueLabel(format: .dateTime.weekday(.abbreviated))
            }
        }
        .chartLegend(position: .bottom, alignment: .leading)
    }
}
