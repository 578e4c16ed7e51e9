import WidgetKit
import SwiftUI

struct WeatherEntry: TimelineEntry {
    let date: Date
    let temperature: Int
}

struct WeatherProvider: TimelineProvider {
    func placeholder(in context: Context) -> WeatherEntry { WeatherEntry(date: .now, temperature: 21) }
    func getSnapshot(in context: Context, completion: @escaping (WeatherEntry) -> Void) {
        completion(placeholder(in: context))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<WeatherEntry>) -> Void) {
        let next = Calendar.current.date(byAdding: .minute, value: 30, to: .now)!
        completion(Timeline(entries: [WeatherEntry(date: .now, temperature: 22)], policy: .after(next)))
    }
}

struct WeatherWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Weather", provider: WeatherProvider()) { entry in
            VStack {
                Text("\(entry.temperature)°").font(.largeTitle)
                Text(entry.date, style: .time).font(.caption)
            }
            .containerBackground(.blue.gradient, for: .widget)
        }
        .configurationDisplayName("Weather")
        .description("Current temperature.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}
