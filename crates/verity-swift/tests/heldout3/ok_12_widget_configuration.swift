import WidgetKit
import SwiftUI

struct MoodEntry: TimelineEntry {
    let date: Date
    let emoji: String
}

struct MoodProvider: TimelineProvider {
    func placeholder(in context: Context) -> MoodEntry { MoodEntry(date: .now, emoji: "🙂") }

    func getSnapshot(in context: Context, completion: @escaping (MoodEntry) -> Void) {
        completion(MoodEntry(date: .now, emoji: "😀"))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<MoodEntry>) -> Void) {
        let next = Calendar.current.date(byAdding: .hour, value: 1, to: .now)!
        completion(Timeline(entries: [MoodEntry(date: .now, emoji: "😌")], policy: .after(next)))
    }
}

struct MoodWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Mood", provider: MoodProvider()) { entry in
            Text(entry.emoji)
                .font(.system(size: 44))
                .containerBackground(.background, for: .widget)
        }
        .configurationDisplayName("Mood")
        .description("Today's mood at a glance.")
        .supportedFamilies([.systemSmall, .accessoryCircular])
    }
}
