import SwiftUI

@Observable
final class FocusTimer {
    var remaining: Duration = .seconds(25 * 60)
    var isRunning = false
}

@main
struct FocusApp: App {
    @State private var timer = FocusTimer()

    var body: some Scene {
        WindowGroup {
            ContentView(timer: timer)
                .frame(minWidth: 420, minHeight: 300)
        }
        .defaultSize(width: 520, height: 360)
        .windowResizability(.contentMinSize)

        Settings {
            Form {
                Text("Preferences")
            }
            .padding(20)
            .frame(width: 360)
        }

        MenuBarExtra("Focus", systemImage: "timer") {
            Text(timer.remaining.formatted(.time(pattern: .minuteSecond)))
                .padding()
        }
        .menuBarExtraStyle(.window)
    }
}

struct ContentView: View {
    var timer: FocusTimer

    var body: some View {
        Button(timer.isRunning ? "Pause" : "Start") {
            timer.isRunning.toggle()
        }
        .keyboardShortcut(.space, modifiers: [])
    }
}
