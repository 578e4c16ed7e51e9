import SwiftUI

@main
struct ClipboardApp: App {
    @State private var history: [String] = []

    var body: some Scene {
        MenuBarExtra("Clipboard", systemImage: "doc.on.clipboard") {
            ForEach(history, id: \.self) { entry in
                Button(entry) {}
            }
            Divider()
            Button("Clear") { history.removeAll() }
        }
    }
}
