import SwiftUI

struct Note: Identifiable {
    let id = UUID()
    var text: String
    var pinned = false
}

struct NotesList: View {
    @State private var notes: [Note] = [Note(text: "Buy milk"), Note(text: "Call mom")]

    var body: some View {
        List {
            ForEach($notes) { $note in
                Text(note.text)
                    .swipeActions(edge: .leading, allowsFullSwipe: true) {
                        Button {
                            note.pinned.toggle()
                        } label: {
                            Label("Pin", systemImage: note.pinned ? "pin.slash" : "pin")
                        }
                        .tint(.yellow)
                    }
                    .swipeActions(edge: .trailing) {
                        Button(role: .destructive) {
                            notes.removeAll { $0.id == note.id }
                        } label: {
                            Label("Delete", systemImage: "trash")
                        }
                    }
                    .contextMenu {
                        ShareLink(item: note.text)
                    }
            }
        }
    }
}
