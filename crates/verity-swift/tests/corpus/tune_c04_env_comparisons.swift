import SwiftUI

struct LifecycleView: View {
    @Environment(\.scenePhase) private var scenePhase
    @Environment(\.colorScheme) private var colorScheme
    @State private var isActive = false

    var body: some View {
        Text(isActive ? "Active" : "Idle")
            .foregroundStyle(colorScheme == .dark ? Color.white : Color.black)
            .onChange(of: scenePhase) { oldPhase, newPhase in
                isActive = newPhase == .active
                if oldPhase != .background, newPhase == .background {
                    print("moved to background")
                }
            }
    }
}
