import SwiftUI

struct SettingsView: View {
    @AppStorage("notificationsOn") private var notificationsOn = true
    @AppStorage("units") private var units = "metric"

    var body: some View {
        Form {
            Section("General") {
                Toggle(isOn: $notificationsOn) {
                    Label("Notifications", systemName: "bell")
                }
                Picker("Units", selection: $units) {
                    Text("Metric").tag("metric")
                    Text("Imperial").tag("imperial")
                }
            }
            Section {
                Link("Privacy Policy", destination: URL(string: "https://example.com/privacy")!)
            }
        }
        .navigationTitle("Settings")
    }
}
