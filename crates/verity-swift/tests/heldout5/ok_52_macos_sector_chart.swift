import SwiftUI
import Charts

struct StorageSlice: Identifiable {
    let id = UUID()
    let kind: String
    let gigabytes: Double
}

struct StorageBreakdown: View {
    let slices: [StorageSlice]
    @State private var selectedAmount: Double?

    var body: some View {
        Chart(slices) { slice in
            SectorMark(
                angle: .value("Size", slice.gigabytes),
                innerRadius: .ratio(0.6),
                angularInset: 1.5
            )
            .foregroundStyle(by: .value("Kind", slice.kind))
            .opacity(selectedAmount == nil ? 1 : 0.8)
        }
        .chartAngleSelection(value: $selectedAmount)
        .chartLegend(position: .trailing, alignment: .center)
        .frame(width: 360, height: 240)
        .padding()
    }
}
