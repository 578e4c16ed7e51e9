import SwiftUI

struct Event: Identifiable {
    let id = UUID()
    var name: String
    var start: Date
    var location: String?
}

struct EventRow: View {
    let event: Event

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(event.name)
                .font(.headline)
            Text(event.start.formatted(date: .medium, time: .shortened))
                .font(.subheadline)
                .foregroundStyle(.secondary)
            if let location = event.location {
                Label(location, systemImage: "mappin.and.ellipse")
                    .font(.caption)
                    .foregroundStyle(.tertiary)
            }
        }
        .padding(.vertical, 6)
    }
}

struct EventList: View {
    @State private var events: [Event] = [
        Event(name: "Design review", start: .now, location: "Room 4"),
        Event(name: "Standup", start: .now.addingTimeInterval(3600), location: nil),
    ]

    var body: some View {
        NavigationStack {
            List(events) { event in
                EventRow(event: event)
            }
            .navigationTitle("Upcoming")
        }
    }
}
