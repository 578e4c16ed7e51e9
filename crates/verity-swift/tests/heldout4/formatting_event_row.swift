import SwiftUI

struct Event: Identifiable {
    let id = UUID()
    var title: String
    var date: Date
    var ticketPrice: Double
}

struct EventRow: View {
    let event: Event

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(event.title)
                .font(.headline)
            Text(event.date.formatted(date: .abbreviated, time: .shortened))
                .font(.subheadline)
                .foregroundStyle(.secondary)
            HStack {
                Text(event.date.formatted(.relative(presentation: .named)))
                Spacer()
                Text(event.ticketPrice, format: .currency(code: "EUR"))
                    .monospacedDigit()
            }
            .font(.caption)
        }
        .padding(.vertical, 6)
    }
}
