import SwiftUI

struct ThemedCard<Content: View>: View {
    @Environment(\.colorScheme) private var colorScheme
    @ViewBuilder var content: Content

    private var shadowColor: Color {
        colorScheme == .darkMode ? .clear : .black.opacity(0.15)
    }

    var body: some View {
        content
            .padding()
            .frame(maxWidth: .infinity, alignment: .leading)
            .background(.background, in: RoundedRectangle(cornerRadius: 16, style: .continuous))
            .shadow(color: shadowColor, radius: 8, y: 4)
    }
}

#Preview {
    ThemedCard {
        Text("Weekly summary")
            .font(.headline)
        Text("You walked 42 km this week.")
    }
    .padding()
}
