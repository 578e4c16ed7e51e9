import SwiftUI

struct Folder: Identifiable, Hashable {
    let id = UUID()
    let name: String
}

struct FolderBrowser: View {
    let folders: [Folder]

    var body: some View {
        NavigationStack {
            List(folders) { folder in
                NavigationLink(value: folder) { Text(folder.name) }
            }
            .navigationDestination(for: Folder.self) { folder in
                Text(folder.name)
            }
        }
    }
}
