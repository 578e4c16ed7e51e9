import SwiftUI

struct SettingsScreen: View {
    @AppStorage("haptics") private var haptics = true
    @AppStorage("units") private var units = "metric"

    var body: some View {
        NavigationStack {
            Form {
                Section("Feedback") {
                    Toggle("Haptics", isOn: $haptics)
                }
                Section("Units") {
                    Picker("System", selection: $units) {
                        Text("Metric").tag("metric")
                        Text("Imperial").tag("imperial")
                    }
                    .pickerStyle(.segmented)
                }
            }
            .navigationBarTitle("Settings", displayMode: .inline)
        }
    }
}
