import SwiftUI

struct WorkoutTotals: View {
    let minutesPerDay: [Int]

    private var total: Int {
        minutesPerDay.sum()
    }

    var body: some View {
        VStack(alignment: .leading) {
            Text("This week").font(.caption).foregroundStyle(.secondary)
            Text("\(total) min").font(.largeTitle.monospacedDigit())
        }
    }
}
