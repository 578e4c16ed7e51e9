import SwiftUI
import UniformTypeIdentifiers

@main
struct LedgerApp: App {
    @State private var showingImporter = false

    var body: some Scene {
        WindowGroup {
            Text("Ledger")
                .frame(minWidth: 480, minHeight: 320)
                .fileImporter(isPresented: $showingImporter, allowedContentTypes: [.commaSeparatedText]) { _ in }
        }
        .commands {
            CommandGroup(after: .newItem) {
                Button("Import CSV…") { showingImporter = true }
                    .keyboardShortcut("i", modifiers: [.command, .shift])
            }
        }

        Window("Statistics", id: "stats") {
            Text("Totals")
                .padding()
        }
        .windowResizability(.contentSize)

        Settings {
            Form {
                Toggle("Round amounts", isOn: .constant(true))
            }
            .padding()
        }
    }
}
