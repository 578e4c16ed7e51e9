import SwiftUI

enum Theme: String, CaseIterable, Identifiable {
    case sunrise, midnight, forest
    var id: String { rawValue }
    var color: Color {
        switch self {
        case .sunrise: return .orange
        case .midnight: return .indigo
        case .forest: return .green
        }
    }
}

struct Picker2: View {
    @State private var theme: Theme = .midnight
    var body: some View {
        Picker("Theme", selection: $theme) {
            ForEach(Theme.allCases) { t in
                Text(t.rawValue.capitalized).tag(t)
            }
        }
        .pickerStyle(.segmented)
        .tint(theme.color)
        .frame(maxWidth: .infinity, alignment: .leading)
    }
}
