import SwiftUI
import Charts

struct DiskUsage: Identifiable {
    let id = UUID()
    let kind: String
    let gigabytes: Double
}

struct DiskUsageChart: View {
    let usage: [DiskUsage]
    @State private var selectedAngle: Double?

    var body: some View {
        Chart(usage) { item in
            SectorMark(angle: .value("Size", item.gigabytes), innerRadius: .ratio(0.55), angularInset: 2)
                .foregroundStyle(by: .value("Kind", item.kind))
                .cornerRadius(6)
        }
        .chartAngleSelection(value: $selectedAngle)
        .chartLegend(position: .trailing, alignment: .center)
        .frame(width: 360, height: 280)
    }
}
