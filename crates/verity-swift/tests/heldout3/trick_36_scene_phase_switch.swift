import SwiftUI

@main
struct NotebookApp: App {
    @Environment(\.scenePhase) private var phase
    @State private var lastBackground: Date?

    var body: some Scene {
        WindowGroup {
            Text("Notebook")
        }
        .onChange(of: phase) { _, newPhase in
            switch newPhase {
            case .background:
                lastBackground = .now
            case .active, .inactive:
                break
            @unknown default:
                break
            }
        }
    }
}
