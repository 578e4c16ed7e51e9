import SwiftUI

struct EventRow: View {
    let title: String
    let start: Date

    private var relative: String {
        let formatter = RelativeDateTimeFormatter()
        formatter.unitsStyle = .full
        return formatter.localizedString(for: start, relativeTo: .now)
    }

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(title)
                .font(.headline)
            Text(start.formatted(date: .abbreviated, time: .shortened))
            Text(start.formatted(.dateTime.month(.wide).day().year()))
                .font(.caption)
            HStack {
                Text(relative)
                Text(start, style: .relative)
            }
            .font(.caption2)
            .foregroundStyle(.secondary)
        }
    }
}
