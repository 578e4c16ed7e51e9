import SwiftUI

struct SettingsView: View {
    @AppStorage("username") private var username = ""
    @State private var notifications = true
    @State private var volume = 0.5
    @Environment(\.colorScheme) private var colorScheme
    @Environment(\.openURL) private var openURL

    var body: some View {
        Form {
            Section("Account") {
                TextField("Username", text: $username)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
            }
            Section {
                Toggle("Notifications", isOn: $notifications)
                Slider(value: $volume, in: 0...1) {
                    Text("Volume")
                }
            } header: {
                Text("Preferences")
            } footer: {
                Text(colorScheme == .dark ? "Dark mode" : "Light mode")
            }
            Button("Help") {
                if let url = URL(string: "https://example.com/help") {
                    openURL(url)
                }
            }
        }
        .navigationTitle("Settings")
        .navigationBarTitleDisplayMode(.inline)
    }
}
