import SwiftUI

struct LikeButton: View {
    @State private var liked = false
    @State private var count = 41

    var body: some View {
        Button {
            withAnimation(.springy) {
                liked.toggle()
                count += liked ? 1 : -1
            }
        } label: {
            HStack(spacing: 6) {
                Image(systemName: liked ? "heart.fill" : "heart")
                    .foregroundStyle(liked ? .pink : .secondary)
                    .scaleEffect(liked ? 1.2 : 1.0)
                Text("\(count)")
                    .monospacedDigit()
            }
            .padding(.horizontal, 12)
            .padding(.vertical, 8)
            .background(.thinMaterial, in: Capsule())
        }
        .buttonStyle(.plain)
        .accessibilityLabel(liked ? "Unlike" : "Like")
    }
}
