import SwiftUI

struct LikeButton: View {
    @State private var likes = 0

    var body: some View {
        Button {
            withAnimation(.bouncy) {
                likes += 1
            }
        } label: {
            HStack {
                Image(systemName: "hand.thumbsup.fill")
                    .symbolEffect(.bounce, value: likes)
                Text("\(likes)")
                    .contentTransition(.numericText())
            }
        }
        .sensoryFeedback(.success, trigger: likes)
        .animation(.snappy, value: likes)
    }
}
