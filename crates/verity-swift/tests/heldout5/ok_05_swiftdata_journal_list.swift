import SwiftUI
import SwiftData

@Model
final class JournalEntry {
    var title: String
    var body: String
    var createdAt: Date

    init(title: String, body: String, createdAt: Date = .now) {
        self.title = title
        self.body = body
        self.createdAt = createdAt
    }
}

struct JournalListView: View {
    @Environment(\.modelContext) private var context
    @Query(sort: \JournalEntry.createdAt, order: .reverse) private var entries: [JournalEntry]

    var body: some View {
        List {
            ForEach(entries) { entry in
                VStack(alignment: .leading) {
                    Text(entry.title).font(.headline)
                    Text(entry.body).lineLimit(2)
                }
            }
            .onDelete { offsets in
                for index in offsets {
                    context.delete(entries[index])
                }
                try? context.save()
            }
        }
        .toolbar {
            Button("Add", systemImage: "plus") {
                context.insert(JournalEntry(title: "Untitled", body: ""))
            }
        }
    }
}
