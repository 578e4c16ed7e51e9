import SwiftUI

@main
struct TimerApp: App {
    var body: some Scene {
        WindowGroup("Timer", id: "timer") {
            TimerFace()
                .frame(width: 240, height: 240)
        }
        .windowStyle(.transparent)
        .windowResizability(.contentSize)
        .defaultPosition(.topTrailing)
    }
}

struct TimerFace: View {
    @State private var remaining = 25 * 60

    var body: some View {
        Text(Duration.seconds(remaining).formatted(.time(pattern: .minuteSecond)))
            .font(.system(size: 48, weight: .medium, design: .monospaced))
            .task {
                while remaining > 0 {
                    try? await Task.sleep(for: .seconds(1))
                    remaining -= 1
                }
            }
    }
}
