import SwiftUI

struct Event: Identifiable {
    let id = UUID()
    let title: String
    let date: Date
}

struct EventRow: View {
    let event: Event

    var body: some View {
        VStack(alignment: .leading) {
            Text(event.title)
                .font(.headline)
            Text(event.date.formatted(date: .medium, time: .shortened))
                .font(.caption)
                .foregroundStyle(.secondary)
        }
    }
}
