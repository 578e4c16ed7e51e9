import SwiftUI

struct RootView: View {
    @Environment(\.scenePhase) private var scenePhase
    @State private var refreshCount = 0

    var body: some View {
        Text("Refreshed \(refreshCount) times")
            .onChange(of: scenePhase) { _, newPhase in
                if newPhase == .foreground {
                    refreshCount += 1
                }
            }
    }
}
