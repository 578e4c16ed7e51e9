import SwiftUI

struct DashboardView: View {
    @Environment(\.openWindow) private var openWindow
    @Environment(\.openURL) private var openURL
    @Environment(\.colorScheme) private var colorScheme
    @AppStorage("compactMode") private var compactMode = false

    var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            Toggle("Compact mode", isOn: $compactMode)
                .toggleStyle(.switch)
            Button("Show Activity") {
                openWindow(id: "activity")
            }
            Button("Documentation") {
                openURL(URL(string: "https://example.com/docs")!)
            }
            Text(colorScheme == .dark ? "Dark appearance" : "Light appearance")
                .font(.footnote)
        }
        .padding()
    }
}
