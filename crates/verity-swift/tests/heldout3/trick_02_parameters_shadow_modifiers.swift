import SwiftUI

struct TagChip: View {
    let text: String
    let tint: Color
    let padding: CGFloat
    let opacity: Double

    init(_ text: String, tint: Color = .blue, padding: CGFloat = 8, opacity: Double = 0.15) {
        self.text = text
        self.tint = tint
        self.padding = padding
        self.opacity = opacity
    }

    var body: some View {
        Text(text)
            .font(.footnote.bold())
            .padding(.horizontal, padding)
            .padding(.vertical, padding / 2)
            .foregroundStyle(tint)
            .background(tint.opacity(opacity), in: .capsule)
    }
}
