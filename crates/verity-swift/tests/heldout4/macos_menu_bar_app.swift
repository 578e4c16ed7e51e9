import SwiftUI

@main
struct ClipboardApp: App {
    var body: some Scene {
        MenuBarExtra("Clipboard", systemImage: "doc.on.clipboard") {
            ClipboardMenu()
        }
        .menuBarExtraStyle(.window)

        Window("History", id: "history") {
            Text("Clipboard history")
                .frame(minWidth: 300, minHeight: 200)
        }
        .commands {
            CommandGroup(replacing: .newItem) {
                Button("New Snippet") {}
                    .keyboardShortcut("n", modifiers: [.command, .shift])
            }
        }

        Settings {
            Form {
                Toggle("Launch at login", isOn: .constant(false))
            }
            .padding()
        }
    }
}

struct ClipboardMenu: View {
    @Environment(\.openWindow) private var openWindow

    var body: some View {
        VStack(alignment: .leading) {
            Button("Show History") { openWindow(id: "history") }
            Divider()
            Button("Quit") { exit(0) }
        }
        .padding()
    }
}
