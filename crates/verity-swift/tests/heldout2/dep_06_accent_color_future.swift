import SwiftUI

@main
struct HabitApp: App {
    var body: some Scene {
        WindowGroup {
            TabView {
                Text("Today")
                    .tabItem { Label("Today", systemImage: "checkmark.circle") }
                Text("Stats")
                    .tabItem { Label("Stats", systemImage: "chart.bar") }
            }
            .accentColor(.orange)
        }
    }
}
