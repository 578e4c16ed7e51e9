import SwiftUI

@main
struct NotesApp: App {
    @AppStorage("fontSize") private var fontSize = 13.0

    var body: some Scene {
        WindowGroup {
            Text("Notes")
                .font(.system(size: fontSize))
                .frame(minWidth: 400, minHeight: 300)
        }
        .commands {
            CommandMenu("Format") {
                Button("Bigger") { fontSize += 1 }
                    .keyboardShortcut("+", modifiers: .command)
                Button("Smaller") { fontSize -= 1 }
                    .keyboardShortcut("-", modifiers: .command)
            }
        }

        Settings {
            Form {
                Slider(value: $fontSize, in: 9...24) {
                    Text("Font size")
                }
            }
            .padding(20)
            .frame(width: 320)
        }

        MenuBarExtra("Notes", systemImage: "note.text") {
            Button("Quit") { }
        }
        .menuBarExtraStyle(.menu)
    }
}
