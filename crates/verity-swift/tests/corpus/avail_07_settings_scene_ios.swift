import SwiftUI

@main
struct MyApp: App {
    var body: some Scene {
        WindowGroup {
            Text("Main")
        }
        Settings {
            Text("Preferences")
        }
    }
}
