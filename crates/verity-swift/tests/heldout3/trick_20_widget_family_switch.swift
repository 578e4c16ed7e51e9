import WidgetKit
import SwiftUI

struct CountdownEntry: TimelineEntry {
    let date: Date
    let target: Date
    let title: String
}

struct CountdownWidgetView: View {
    @Environment(\.widgetFamily) private var family
    let entry: CountdownEntry

    var body: some View {
        switch family {
        case .accessoryRectangular:
            VStack(alignment: .leading) {
                Text(entry.title).font(.headline)
                Text(entry.target, style: .timer)
            }
        case .systemSmall:
            Text(entry.target, style: .relative)
                .font(.title3)
                .containerBackground(.fill.tertiary, for: .widget)
        default:
            Label(entry.title, systemImage: "timer")
                .containerBackground(.blue.gradient, for: .widget)
        }
    }
}
