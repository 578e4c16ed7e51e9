import SwiftUI

enum Theme: String, CaseIterable, Identifiable {
    case light, dark, system

    var id: String { rawValue }

    var colorScheme: ColorScheme? {
        switch self {
        case .light: return .light
        case .dark: return .dark
        case .system: return nil
        }
    }
}

struct AppearanceSettings: View {
    @AppStorage("theme") private var theme: Theme = .system

    var body: some View {
        Form {
            Picker("Appearance", selection: $theme) {
                ForEach(Theme.allCases) { theme in
                    Text(theme.rawValue.capitalized).tag(theme)
                }
            }
            .pickerStyle(.inline)
        }
        .preferredColorScheme(theme.colorScheme)
    }
}
