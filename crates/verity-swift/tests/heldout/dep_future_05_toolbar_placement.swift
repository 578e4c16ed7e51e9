import SwiftUI

struct NotesList: View {
    @State private var notes: [String] = ["Groceries", "Ideas"]
    @State private var isEditing = false

    var body: some View {
        NavigationStack {
            List {
                ForEach(notes, id: \.self) { note in
                    Text(note)
                }
                .onDelete { notes.remove(atOffsets: $0) }
            }
            .navigationTitle("Notes")
            .toolbar {
                ToolbarItem(placement: .navigationBarTrailing) {
                    Button {
                        notes.append("Note \(notes.count + 1)")
                    } label: {
                        Image(systemName: "square.and.pencil")
                    }
                }
                ToolbarItem(placement: .topBarLeading) {
                    EditButton()
                }
            }
        }
    }
}
