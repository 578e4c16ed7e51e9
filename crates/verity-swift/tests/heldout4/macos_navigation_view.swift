import SwiftUI

struct NotesSidebarApp: View {
    let notes: [String]
    @State private var selected: String?

    var body: some View {
        NavigationView {
            List(notes, id: \.self, selection: $selected) { note in
                Text(note)
            }
            .listStyle(.sidebar)
            Text(selected ?? "Select a note")
                .frame(maxWidth: .infinity, maxHeight: .infinity)
        }
    }
}
