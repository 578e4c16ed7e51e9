import WidgetKit
import SwiftUI

struct BatteryEntry: TimelineEntry {
    let date: Date
    let level: Double
}

struct BatteryProvider: TimelineProvider {
    func placeholder(in context: Context) -> BatteryEntry {
        BatteryEntry(date: .now, level: 0.75)
    }

    func getSnapshot(in context: Context, completion: @escaping (BatteryEntry) -> Void) {
        completion(BatteryEntry(date: .now, level: context.isPreview ? 0.75 : 0.5))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<BatteryEntry>) -> Void) {
        let entries = stride(from: 0, to: 5, by: 1).map { step in
            BatteryEntry(date: .now.addingTimeInterval(Double(step) * 900), level: 0.8 - Double(step) * 0.05)
        }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

struct BatteryWidgetView: View {
    @Environment(\.widgetFamily) private var family
    let entry: BatteryEntry

    var body: some View {
        switch family {
        case .accessoryCircular:
            Gauge(value: entry.level) {
                Image(systemName: "battery.100")
            }
            .gaugeStyle(.accessoryCircularCapacity)
        default:
            VStack(alignment: .leading) {
                Text("Battery")
                    .font(.caption)
                Text(entry.level, format: .percent)
                    .font(.title.bold())
                    .widgetAccentable()
            }
        }
    }
}

struct BatteryWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Battery", provider: BatteryProvider()) { entry in
            BatteryWidgetView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Battery")
        .description("Shows the battery level.")
        .supportedFamilies([.systemSmall, .accessoryCircular])
    }
}

#Preview(as: .systemSmall) {
    BatteryWidget()
} timeline: {
    BatteryEntry(date: .now, level: 0.4)
}
