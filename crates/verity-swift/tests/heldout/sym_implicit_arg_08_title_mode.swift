import SwiftUI

struct SettingsScreen: View {
    @AppStorage("notificationsEnabled") private var notificationsEnabled = true
    @AppStorage("username") private var username = ""

    var body: some View {
        NavigationStack {
            Form {
                Section("Profile") {
                    TextField("Name", text: $username)
                }
                Section("Notifications") {
                    Toggle("Enabled", isOn: $notificationsEnabled)
                }
                Section {
                    LabeledContent("Version", value: "1.4.2")
                }
            }
            .navigationTitle("Settings")
            .navigationBarTitleDisplayMode(.automaticLarge)
        }
    }
}
