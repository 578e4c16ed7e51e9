import SwiftUI

struct StatsGrid: View {
    let stats: [(label: String, value: String)]

    var body: some View {
        Grid(alignment: .leading, horizontalSpacing: 16, verticalSpacing: 10) {
            GridRow {
                Text("Metric").font(.caption).foregroundStyle(.secondary)
                Text("Value").font(.caption).foregroundStyle(.secondary)
                    .gridColumnAlignment(.trailing)
            }
            Divider().gridCellUnsizedAxes(.horizontal)
            ForEach(stats, id: \.label) { stat in
                GridRow {
                    Text(stat.label)
                    Text(stat.value).monospacedDigit()
                }
            }
        }
        .padding()
        .background(.background.secondary, in: RoundedRectangle(cornerRadius: 16))
    }
}
