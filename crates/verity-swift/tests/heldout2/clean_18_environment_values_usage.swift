import SwiftUI

struct AdaptiveHome: View {
    @Environment(\.colorScheme) private var colorScheme
    @Environment(\.horizontalSizeClass) private var sizeClass
    @Environment(\.openURL) private var openURL
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        let layout = sizeClass == .compact
            ? AnyLayout(VStackLayout(spacing: 12))
            : AnyLayout(HStackLayout(spacing: 24))
        layout {
            Text("Hello")
            Button("Help") {
                openURL(URL(string: "https://example.com/help")!)
            }
        }
        .padding()
        .background(colorScheme == .dark ? Color.black : Color.white)
        .onChange(of: scenePhase) { _, phase in
            if phase == .background {
                print("Saving state")
            }
        }
    }
}
