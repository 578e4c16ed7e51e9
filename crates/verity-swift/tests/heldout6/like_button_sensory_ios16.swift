import SwiftUI

struct LikeButton: View {
    @Binding var isLiked: Bool
    @State private var taps = 0

    var body: some View {
        Button {
            isLiked.toggle()
            taps += 1
        } label: {
            Image(systemName: isLiked ? "heart.fill" : "heart")
                .foregroundStyle(isLiked ? .red : .primary)
        }
        .sensoryFeedback(.impact(weight: .light), trigger: taps)
        .accessibilityLabel(isLiked ? "Unlike" : "Like")
    }
}
