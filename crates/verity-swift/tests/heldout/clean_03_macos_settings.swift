import SwiftUI

@main
struct NotesMacApp: App {
    var body: some Scene {
        WindowGroup {
            NotesSplitView()
        }
        Settings {
            PreferencesForm()
        }
    }
}

struct NotesSplitView: View {
    @State private var notes = ["Ideas", "Meeting", "Groceries"]
    @State private var selection: String?

    var body: some View {
        NavigationSplitView {
            List(notes, id: \.self, selection: $selection) { note in
                Text(note)
            }
            .navigationSplitViewColumnWidth(min: 180, ideal: 220)
        } detail: {
            Text(selection ?? "Select a note")
                .font(.title)
        }
    }
}

struct PreferencesForm: View {
    @AppStorage("fontSize") private var fontSize = 13.0

    var body: some View {
        Form {
            Slider(value: $fontSize, in: 10...24) {
                Text("Font size")
            }
        }
        .padding()
        .frame(width: 360)
    }
}
