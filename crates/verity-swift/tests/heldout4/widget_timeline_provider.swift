import WidgetKit
import SwiftUI

struct QuoteEntry: TimelineEntry {
    let date: Date
    let quote: String
}

struct QuoteProvider: TimelineProvider {
    func placeholder(in context: Context) -> QuoteEntry {
        QuoteEntry(date: .now, quote: "Stay hungry.")
    }

    func getSnapshot(in context: Context, completion: @escaping (QuoteEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<QuoteEntry>) -> Void) {
        let now = Date()
        let entries = (0..<4).map { offset in
            QuoteEntry(date: Calendar.current.date(byAdding: .hour, value: offset, to: now)!, quote: "Quote #\(offset + 1)")
        }
        let next = Calendar.current.date(byAdding: .hour, value: 4, to: now)!
        completion(Timeline(entries: entries, policy: .after(next)))
    }
}

struct QuoteWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "QuoteWidget", provider: QuoteProvider()) { entry in
            Text(entry.quote)
                .font(.headline)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Daily Quote")
        .description("A new quote every few hours.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}
