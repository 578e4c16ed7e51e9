import SwiftUI

struct DocumentEditor: View {
    @State private var text = ""
    @State private var showInspector = false

    var body: some View {
        TextEditor(text: $text)
            .toolbar {
                Button("Info", systemImage: "info.circle") { showInspector.toggle() }
            }
            .inspector(isPresented: $showInspector) {
                Text("\(text.count) characters")
            }
    }
}
