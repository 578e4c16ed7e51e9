import SwiftUI

struct NotesHome: View {
    @State private var notes: [String] = []

    var body: some View {
        NavigationStack {
            List(notes, id: \.self) { Text($0) }
                .navigationTitle("Notes")
                .toolbar {
                    ToolbarItem(placement: .bottomTrailing) {
                        Button("New", systemImage: "square.and.pencil") {
                            notes.append("Untitled \(notes.count + 1)")
                        }
                    }
                }
        }
    }
}
