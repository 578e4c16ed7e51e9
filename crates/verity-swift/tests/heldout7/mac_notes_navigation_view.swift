import SwiftUI

struct NoteFolder: Identifiable {
    let id = UUID()
    let name: String
    let notes: [String]
}

struct NotesBrowser: View {
    let folders: [NoteFolder]

    var body: some View {
        NavigationView {
            List(folders) { folder in
                NavigationLink {
                    List(folder.notes, id: \.self) { Text($0) }
                } label: {
                    Label(folder.name, systemImage: "folder")
                }
            }
            .listStyle(.sidebar)
            .frame(minWidth: 200)

            Text("Select a folder")
                .foregroundStyle(.secondary)
        }
    }
}
