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
        let quotes = ["Stay hungry.", "Less is more.", "Ship it."]
        let entries = quotes.enumerated().map { index, quote in
            QuoteEntry(date: Calendar.current.date(byAdding: .hour, value: index, to: .now)!, quote: quote)
        }
        completion(Timeline(entries: entries, policy: .everyHour))
    }
}
