import SwiftUI

struct SettingsScreen: View {
    @AppStorage("useMetric") private var useMetric = true
    @AppStorage("dailyGoal") private var dailyGoal = 10_000

    var body: some View {
        NavigationView {
            Form {
                Section("Units") {
                    Toggle("Metric units", isOn: $useMetric)
                }
                Section("Goal") {
                    Stepper("\(dailyGoal) steps", value: $dailyGoal, in: 1_000...30_000, step: 500)
                }
            }
            .navigationTitle("Settings")
        }
    }
}
