import SwiftUI

@main
struct JournalApp: App {
    @Environment(\.scenePhase) private var scenePhase
    @State private var lockedAt: Date?
    @State private var isLocked = false

    var body: some Scene {
        WindowGroup {
            ContentRoot(isLocked: $isLocked)
        }
        .onChange(of: scenePhase) { _, phase in
            switch phase {
            case .active:
                if let lockedAt, Date.now.timeIntervalSince(lockedAt) > 60 {
                    isLocked = true
                }
            case .inactive:
                break
            case .suspended:
                lockedAt = .now
            @unknown default:
                break
            }
        }
    }
}

struct ContentRoot: View {
    @Binding var isLocked: Bool

    var body: some View {
        if isLocked {
            Button("Unlock") { isLocked = false }
        } else {
            Text("Entries")
        }
    }
}
