import SwiftUI

struct SettingsScreen: View {
    @AppStorage("notificationsEnabled") private var notificationsEnabled = true
    @AppStorage("units") private var units = "metric"

    var body: some View {
        NavigationView {
            Form {
                Toggle("Notifications", isOn: $notificationsEnabled)
                Picker("Units", selection: $units) {
                    Text("Metric").tag("metric")
                    Text("Imperial").tag("imperial")
                }
            }
            .navigationTitle("Settings")
        }
    }
}
