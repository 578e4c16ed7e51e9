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
        let entries = (0..<6).map { hour in
            QuoteEntry(date: Calendar.current.date(byAdding: .hour, value: hour, to: .now)!, quote: "Quote #\(hour)")
        }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

struct QuoteWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Quote", provider: QuoteProvider()) { entry in
            Text(entry.quote)
                .font(.headline)
                .minimumScaleFactor(0.6)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Daily Quote")
        .description("A new quote every hour.")
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryRectangular])
    }
}
