import SwiftUI

@main
struct JournalApp: App {
    @Environment(\.scenePhase) private var scenePhase
    @StateObject private var store = JournalStore()

    var body: some Scene {
        WindowGroup {
            ContentView()
                .environmentObject(store)
        }
        .onChange(of: scenePhase) { _, phase in
            if phase == .background || phase == .terminated {
                store.save()
            }
        }
    }
}

final class JournalStore: ObservableObject {
    @Published var entries: [String] = []
    func save() {}
}

struct ContentView: View {
    var body: some View { Text("Journal") }
}
