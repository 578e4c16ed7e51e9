import SwiftUI

struct Note: Identifiable {
    let id = UUID()
    var text: String
}

@MainActor
final class NoteStore: ObservableObject {
    @Published private(set) var notes: [Note] = []

    func fetchAll() async {
        notes = (1...5).map { Note(text: "Note \($0)") }
    }

    func collectAll() -> String {
        notes.map(\.text).joined(separator: "\n")
    }
}

@MainActor
final class Router: ObservableObject {
    @Published var stack: [Note.ID] = []

    func popToRoot() {
        stack.removeAll()
    }
}

struct NotesScreen: View {
    @StateObject private var store = NoteStore()
    @StateObject private var router = Router()

    var body: some View {
        List(store.notes) { Text($0.text) }
            .task { await store.fetchAll() }
            .toolbar {
                Button("Home") { router.popToRoot() }
            }
    }
}
