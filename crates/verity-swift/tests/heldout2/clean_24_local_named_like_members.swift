import SwiftUI

struct CardView: View {
    let title: String
    let padding: CGFloat = 20
    let opacity = 0.85
    let background = Color.mint

    var body: some View {
        let frame = CGSize(width: 280, height: 160)
        Text(title)
            .font(.title3.weight(.semibold))
            .padding(padding)
            .frame(width: frame.width, height: frame.height)
            .background(background.opacity(opacity))
            .clipShape(RoundedRectangle(cornerRadius: 20, style: .continuous))
            .shadow(color: .black.opacity(0.1), radius: 8, y: 4)
    }
}
