import SwiftUI

struct ThemeSwitcher: View {
    @State private var bordered = true
    let title = "Theme"
    let style = "compact"

    var body: some View {
        VStack(spacing: 16) {
            Text(title)
                .font(.title)
            Text("Current style: \(style)")
                .font(.caption)
            Toggle("Bordered buttons", isOn: $bordered)
            Button("Apply") {
                bordered.toggle()
            }
            .buttonStyle(.bordered)
            .controlSize(.large)
        }
        .padding()
    }
}
