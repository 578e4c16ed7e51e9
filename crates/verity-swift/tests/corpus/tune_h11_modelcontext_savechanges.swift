import SwiftUI
import SwiftData

@Model
final class Note {
    var text: String
    var created: Date

    init(text: String, created: Date = .now) {
        self.text = text
        self.created = created
    }
}

struct NotesView: View {
    @Environment(\.modelContext) private var modelContext
    @Query(sort: \Note.created, order: .reverse) private var notes: [Note]

    var body: some View {
        List(notes) { note in
            Text(note.text)
        }
        .toolbar {
            Button("Add") {
                modelContext.insert(Note(text: "New note"))
                try? modelContext.saveChanges()
            }
        }
    }
}
