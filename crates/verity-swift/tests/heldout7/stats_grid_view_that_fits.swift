import SwiftUI

struct WorkoutStatsView: View {
    let distance: String
    let pace: String
    let calories: String

    var body: some View {
        Grid(alignment: .leading, horizontalSpacing: 16, verticalSpacing: 8) {
            GridRow {
                Text("Distance").foregroundStyle(.secondary)
                Text(distance).gridColumnAlignment(.trailing)
            }
            GridRow {
                Text("Pace").foregroundStyle(.secondary)
                Text(pace)
            }
            Divider().gridCellUnsizedAxes(.horizontal)
            GridRow {
                ViewThatFits(in: .horizontal) {
                    Text("\(calories) kilocalories burned today")
                    Text("\(calories) kcal")
                }
                .gridCellColumns(2)
            }
        }
        .padding()
    }
}
