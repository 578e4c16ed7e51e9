import WidgetKit
import SwiftUI

struct StreakEntry: TimelineEntry {
    let date: Date
    let days: Int
}

struct StreakView: View {
    let entry: StreakEntry

    var body: some View {
        VStack {
            Text("\(entry.days)")
                .font(.largeTitle.bold())
            Text("day streak")
        }
        .containerBackground(.blue.gradient, for: .widget)
    }
}
