import SwiftUI
import Charts

struct WeightEntry: Identifiable {
    let id = UUID()
    let date: Date
    let kilograms: Double
}

struct WeightChart: View {
    let entries: [WeightEntry]

    var body: some View {
        Chart(entries) { entry in
            LineMark(
                x: .value("Date", entry.date, unit: .day),
                y: .value("Weight", entry.kilograms)
            )
            .interpolationMethod(.catmullRom)
            .lineWidth(2)
            .symbol(.circle)
        }
        .chartYScale(domain: .automatic(includesZero: false))
        .frame(height: 220)
    }
}
