import WidgetKit
import SwiftUI

struct CountdownEntry: TimelineEntry {
    let date: Date
    let daysLeft: Int
}

struct CountdownProvider: TimelineProvider {
    func placeholder(in context: Context) -> CountdownEntry {
        CountdownEntry(date: .now, daysLeft: 12)
    }

    func getSnapshot(in context: Context, completion: @escaping (CountdownEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<CountdownEntry>) -> Void) {
        let midnight = Calendar.current.startOfDay(for: .now.addingTimeInterval(86_400))
        let entry = CountdownEntry(date: .now, daysLeft: 11)
        completion(Timeline(entries: [entry], policy: .after(midnight)))
    }
}

struct CountdownWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Countdown", provider: CountdownProvider()) { entry in
            VStack {
                Text("\(entry.daysLeft)").font(.system(size: 44, weight: .bold, design: .rounded))
                Text("days left").font(.caption)
            }
            .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Countdown")
        .supportedFamilies([.systemSmall, .accessoryCircular])
    }
}
