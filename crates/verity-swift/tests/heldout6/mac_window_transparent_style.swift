import SwiftUI

@main
struct ClipboardApp: App {
    var body: some Scene {
        Window("Clipboard History", id: "history") {
            HistoryList()
        }
        .windowStyle(.transparent)
        .defaultPosition(.topTrailing)
    }
}

struct HistoryList: View {
    @State private var items: [String] = []

    var body: some View {
        List(items, id: \.self) { item in
            Text(item).lineLimit(2)
        }
        .frame(minWidth: 280, minHeight: 400)
    }
}
