import SwiftUI

struct ZoomablePhoto: View {
    let image: Image
    @State private var scale: CGFloat = 1
    @GestureState private var pinch: CGFloat = 1

    var body: some View {
        image
            .resizable()
            .scaledToFit()
            .scaleEffect(scale * pinch)
            .gesture(
                MagnificationGesture()
                    .updating($pinch) { value, state, _ in
                        state = value
                    }
                    .onEnded { value in
                        scale = min(max(scale * value, 1), 4)
                    }
            )
            .onTapGesture(count: 2) {
                withAnimation(.spring) { scale = 1 }
            }
    }
}
