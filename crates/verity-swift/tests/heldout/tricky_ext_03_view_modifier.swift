import SwiftUI

struct CardModifier: ViewModifier {
    var padding: CGFloat

    func body(content: Content) -> some View {
        content
            .padding(padding)
            .background(.regularMaterial, in: RoundedRectangle(cornerRadius: 16, style: .continuous))
            .shadow(color: .black.opacity(0.08), radius: 6, y: 3)
    }
}

extension View {
    func cardStyle(padding: CGFloat = 16) -> some View {
        modifier(CardModifier(padding: padding))
    }

    @ViewBuilder
    func hidden(_ isHidden: Bool) -> some View {
        if isHidden {
            hidden()
        } else {
            self
        }
    }
}

struct DashboardView: View {
    @State private var showDetails = false

    var body: some View {
        VStack(spacing: 16) {
            Text("Today")
                .font(.title2.bold())
                .cardStyle()
            Text("Details")
                .cardStyle(padding: 24)
                .hidden(!showDetails)
            Toggle("Show details", isOn: $showDetails)
                .cardStyle(padding: 12)
        }
        .padding()
    }
}
