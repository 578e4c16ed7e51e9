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
        let next = Calendar.current.date(byAdding: .hour, value: 6, to: .now) ?? .now
        completion(Timeline(entries: [placeholder(in: context)], policy: .after(next)))
    }
}

struct QuoteWidgetView: View {
    let entry: QuoteEntry

    var body: some View {
        Text(entry.quote)
            .font(.headline)
            .minimumScaleFactor(0.6)
            .containerBackground(for: .widget) {
                Color.orange.opacity(0.2)
            }
    }
}

struct QuoteWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Quote", provider: QuoteProvider()) { entry in
            QuoteWidgetView(entry: entry)
        }
        .configurationDisplayName("Daily quote")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}
