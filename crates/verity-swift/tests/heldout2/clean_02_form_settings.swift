import SwiftUI

struct SettingsView: View {
    @AppStorage("dailyReminder") private var dailyReminder = false
    @AppStorage("reminderTime") private var reminderTime = Date.now.timeIntervalSince1970
    @AppStorage("goal") private var goal = 8
    @AppStorage("units") private var units = "metric"

    private var reminderDate: Binding<Date> {
        Binding(
            get: { Date(timeIntervalSince1970: reminderTime) },
            set: { reminderTime = $0.timeIntervalSince1970 }
        )
    }

    var body: some View {
        Form {
            Section {
                Toggle("Daily reminder", isOn: $dailyReminder)
                if dailyReminder {
                    DatePicker("Time", selection: reminderDate, displayedComponents: .hourAndMinute)
                }
            } header: {
                Text("Reminders")
            } footer: {
                Text("We will nudge you once a day.")
            }
            Section("Goal") {
                Stepper("\(goal) glasses", value: $goal, in: 1...20)
                Picker("Units", selection: $units) {
                    Text("Metric").tag("metric")
                    Text("Imperial").tag("imperial")
                }
                .pickerStyle(.menu)
            }
            Section {
                Link("Privacy policy", destination: URL(string: "https://example.com/privacy")!)
            }
        }
        .navigationTitle("Settings")
    }
}
