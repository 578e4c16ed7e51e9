import WidgetKit
import SwiftUI

struct BatteryEntry: TimelineEntry {
    let date: Date
    let level: Double
}

struct BatteryWidgetView: View {
    let entry: BatteryEntry

    var body: some View {
        Gauge(value: entry.level) {
            Image(systemName: "battery.100")
        }
        .gaugeStyle(.accessoryCircularCapacity)
        .containerBackground(.clear, for: .widget)
    }
}

struct BatteryWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Battery", provider: BatteryProvider()) { entry in
            BatteryWidgetView(entry: entry)
        }
        .supportedFamilies([.systemTiny, .accessoryCircular])
    }
}

struct BatteryProvider: TimelineProvider {
    func placeholder(in context: Context) -> BatteryEntry { BatteryEntry(date: .now, level: 0.8) }
    func getSnapshot(in context: Context, completion: @escaping (BatteryEntry) -> Void) {
        completion(placeholder(in: context))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<BatteryEntry>) -> Void) {
        completion(Timeline(entries: [placeholder(in: context)], policy: .after(.now.addingTimeInterval(900))))
    }
}
