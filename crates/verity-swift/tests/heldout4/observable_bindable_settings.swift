import SwiftUI
import Observation

@Observable
final class ReaderSettings {
    var notificationsEnabled = true
    var fontSize: Double = 16
    var theme = "System"
}

struct ReaderSettingsForm: View {
    @Bindable var settings: ReaderSettings

    var body: some View {
        Form {
            Toggle("Notifications", isOn: $settings.notificationsEnabled)
            Stepper("Font size \(Int(settings.fontSize))", value: $settings.fontSize, in: 10...32, step: 1)
            Picker("Theme", selection: $settings.theme) {
                ForEach(["System", "Light", "Dark"], id: \.self) { name in
                    Text(name).tag(name)
                }
            }
        }
    }
}

struct ReaderSettingsScreen: View {
    @State private var settings = ReaderSettings()

    var body: some View {
        ReaderSettingsForm(settings: settings)
    }
}
