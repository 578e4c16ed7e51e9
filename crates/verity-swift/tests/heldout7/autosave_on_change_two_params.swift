import SwiftUI

struct DraftEditor: View {
    @Environment(\.scenePhase) private var scenePhase
    @State private var draft = UserDefaults.standard.string(forKey: "draft") ?? ""
    @State private var edits = 0

    var body: some View {
        TextEditor(text: $draft)
            .padding()
            .onChange(of: draft) { oldValue, newValue in
                if newValue.count != oldValue.count {
                    edits += 1
                }
            }
            .onChange(of: scenePhase) { _, phase in
                if phase == .background {
                    UserDefaults.standard.set(draft, forKey: "draft")
                }
            }
            .overlay(alignment: .bottomTrailing) {
                Text("\(edits) edits").font(.caption).padding()
            }
    }
}
