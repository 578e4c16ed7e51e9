import SwiftUI

struct FileItem: Identifiable {
    let id = UUID()
    var name: String
    var size: Int
    var modified: Date
}

struct FilesTable: View {
    @State private var files: [FileItem] = []
    @State private var selection = Set<FileItem.ID>()
    @State private var sortOrder = [KeyPathComparator(\FileItem.name)]

    var body: some View {
        Table(files, selection: $selection, sortOrder: $sortOrder) {
            TableColumn("Name", value: \.name)
            TableColumn("Size", value: \.size) { file in
                Text(Int64(file.size).formatted(.byteCount(style: .file)))
            }
            TableColumn("Modified", value: \.modified) { file in
                Text(file.modified, format: .dateTime.day().month().year())
            }
        }
        .onChange(of: sortOrder) { _, newOrder in
            files.sort(using: newOrder)
        }
    }
}

@main
struct FileBrowserApp: App {
    var body: some Scene {
        WindowGroup {
            FilesTable()
        }
        .commands {
            CommandGroup(replacing: .newItem) {
                Button("New Folder") {}
                    .keyboardShortcut("n", modifiers: [.command, .shift])
            }
            CommandMenu("Tools") {
                Button("Reindex") {}
            }
        }
        Settings {
            Text("Preferences")
                .padding()
        }
    }
}
