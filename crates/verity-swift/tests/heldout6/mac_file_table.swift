import SwiftUI

struct FileEntry: Identifiable {
    let id = UUID()
    let name: String
    let bytes: Int64
    let modified: Date
}

struct FileBrowser: View {
    let files: [FileEntry]
    @State private var selection = Set<FileEntry.ID>()
    @State private var sortOrder = [KeyPathComparator(\FileEntry.name)]
    @State private var showInspector = false

    var body: some View {
        Table(files.sorted(using: sortOrder), selection: $selection, sortOrder: $sortOrder) {
            TableColumn("Name", value: \.name)
            TableColumn("Size") { file in
                Text(file.bytes.formatted(.byteCount(style: .file)))
                    .monospacedDigit()
            }
            .width(min: 60, ideal: 80)
            TableColumn("Modified") { file in
                Text(file.modified, format: .dateTime.day().month().year())
            }
        }
        .inspector(isPresented: $showInspector) {
            Text("\(selection.count) selected")
                .inspectorColumnWidth(min: 200, ideal: 240)
        }
        .toolbar {
            Toggle("Inspector", systemImage: "sidebar.right", isOn: $showInspector)
        }
    }
}
