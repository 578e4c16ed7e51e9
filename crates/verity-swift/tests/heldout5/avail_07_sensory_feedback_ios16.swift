import SwiftUI

struct LikeButton: View {
    @State private var liked = false

    var body: some View {
        Button {
            liked.toggle()
        } label: {
            Image(systemName: liked ? "heart.fill" : "heart")
                .font(.title)
                .foregroundStyle(liked ? .red : .gray)
        }
        .sensoryFeedback(.impact(weight: .light), trigger: liked)
        .accessibilityLabel(liked ? "Unlike" : "Like")
    }
}
