import SwiftUI

@main
struct ClipboardApp: App {
    @State private var items: [String] = []

    var body: some Scene {
        MenuBarExtra("Clipboard", systemImage: "doc.on.clipboard") {
            VStack(alignment: .leading) {
                ForEach(items, id: \.self) { item in
                    Text(item).lineLimit(1)
                }
                Divider()
                Button("Clear") { items.removeAll() }
            }
            .padding()
            .frame(width: 260)
        }
        .menuBarExtraStyle(.popover)
    }
}
