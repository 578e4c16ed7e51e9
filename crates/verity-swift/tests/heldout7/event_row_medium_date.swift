import SwiftUI

struct CalendarEvent: Identifiable {
    let id = UUID()
    let title: String
    let start: Date
    let room: String
}

struct CalendarEventRow: View {
    let event: CalendarEvent

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(event.title)
                .font(.headline)
            Text(event.start.formatted(date: .medium, time: .shortened))
                .font(.subheadline)
                .foregroundStyle(.secondary)
            Label(event.room, systemImage: "mappin.and.ellipse")
                .font(.caption)
        }
        .padding(.vertical, 6)
    }
}
