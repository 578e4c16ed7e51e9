import SwiftUI

struct FileRow: Identifiable {
    let id = UUID()
    let name: String
    let kind: String
    let size: Int64
}

struct FileBrowser: View {
    let files: [FileRow]
    @State private var selection = Set<FileRow.ID>()
    @State private var showInspector = false

    var body: some View {
        Table(files, selection: $selection) {
            TableColumn("Name", value: \.name)
            TableColumn("Kind", value: \.kind)
            TableColumn("Size") { file in
                Text(file.size.formatted(.byteCount(style: .file)))
            }
        }
        .inspector(isPresented: $showInspector) {
            Text("\(selection.count) selected")
                .inspectorColumnWidth(min: 200, ideal: 240, max: 320)
        }
        .toolbar {
            Toggle(isOn: $showInspector) {
                Label("Inspector", systemImage: "sidebar.right")
            }
        }
    }
}
