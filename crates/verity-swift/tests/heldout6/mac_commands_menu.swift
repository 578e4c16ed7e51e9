import SwiftUI

struct NoteCommands: Commands {
    @FocusedValue(\.selectedNote) private var note

    var body: some Commands {
        CommandGroup(replacing: .newItem) {
            Button("New Note") {
                NotificationCenter.default.post(name: .newNote, object: nil)
            }
            .keyboardShortcut("n", modifiers: .command)
            Button("New Folder") {}
                .keyboardShortcut("n", modifiers: [.command, .shift])
        }
        CommandMenu("Note") {
            Button("Pin") { note?.wrappedValue.isPinned.toggle() }
                .keyboardShortcut("p", modifiers: [.command, .option])
                .disabled(note == nil)
        }
    }
}

struct Note {
    var title: String
    var isPinned = false
}

struct SelectedNoteKey: FocusedValueKey {
    typealias Value = Binding<Note>
}

extension FocusedValues {
    var selectedNote: Binding<Note>? {
        get { self[SelectedNoteKey.self] }
        set { self[SelectedNoteKey.self] = newValue }
    }
}

extension Notification.Name {
    static let newNote = Notification.Name("newNote")
}
