import SwiftUI

struct StatsPanel: View {
    let stats: [(label: String, value: String)]

    var body: some View {
        ViewThatFits(in: .horizontal) {
            HStack(spacing: 24) { cells }
            Grid(alignment: .leading, horizontalSpacing: 16, verticalSpacing: 8) {
                GridRow {
                    Text("Summary").font(.headline).gridCellColumns(2)
                }
                Divider().gridCellUnsizedAxes(.horizontal)
                ForEach(stats.indices, id: \.self) { index in
                    GridRow {
                        Text(stats[index].label).foregroundStyle(.secondary)
                        Text(stats[index].value).gridColumnAlignment(.trailing)
                    }
                }
            }
        }
    }

    private var cells: some View {
        ForEach(stats.indices, id: \.self) { index in
            VStack {
                Text(stats[index].value).font(.title3.monospacedDigit())
                Text(stats[index].label).font(.caption)
            }
        }
    }
}
