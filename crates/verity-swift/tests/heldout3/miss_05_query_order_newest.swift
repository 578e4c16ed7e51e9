import SwiftUI
import SwiftData

@Model
final class JournalEntry {
    var text: String
    var written: Date

    init(text: String, written: Date = .now) {
        self.text = text
        self.written = written
    }
}

struct JournalList: View {
    @Query(sort: \JournalEntry.written, order: .newestFirst) private var entries: [JournalEntry]

    var body: some View {
        List(entries) { entry in
            VStack(alignment: .leading) {
                Text(entry.text).lineLimit(2)
                Text(entry.written, style: .date)
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
        }
    }
}
