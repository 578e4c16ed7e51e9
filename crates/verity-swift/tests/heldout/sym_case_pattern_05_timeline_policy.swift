import WidgetKit
import SwiftUI

struct StepsEntry: TimelineEntry {
    let date: Date
    let steps: Int
}

struct StepsProvider: TimelineProvider {
    func placeholder(in context: Context) -> StepsEntry {
        StepsEntry(date: .now, steps: 4_200)
    }

    func getSnapshot(in context: Context, completion: @escaping (StepsEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<StepsEntry>) -> Void) {
        let now = Date.now
        let entries = (0..<4).map { hour in
            StepsEntry(date: now.addingTimeInterval(Double(hour) * 3600), steps: 4_200 + hour * 500)
        }
        let refresh = now.addingTimeInterval(4 * 3600)
        completion(Timeline(entries: entries, policy: .afterDate(refresh)))
    }
}

struct StepsWidgetView: View {
    var entry: StepsEntry

    var body: some View {
        VStack(alignment: .leading) {
            Text("Steps")
                .font(.caption)
            Text(entry.steps, format: .number)
                .font(.title.bold())
        }
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

struct StepsWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Steps", provider: StepsProvider()) { entry in
            StepsWidgetView(entry: entry)
        }
        .configurationDisplayName("Steps")
        .supportedFamilies([.systemSmall, .accessoryRectangular])
    }
}
