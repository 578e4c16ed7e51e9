import SwiftUI

struct SwipeCard: View {
    @State private var offset: CGSize = .zero
    var onSwipe: (Bool) -> Void

    var body: some View {
        RoundedRectangle(cornerRadius: 20)
            .fill(.orange.gradient)
            .frame(width: 280, height: 380)
            .offset(offset)
            .rotationEffect(.degrees(Double(offset.width) / 20))
            .gesture(
                DragGesture()
                    .onChanged { value in
                        offset = value.translation
                    }
                    .onEnded { value in
                        let projected = value.predictedEndTranslation.width
                        if abs(projected) > 200 || abs(value.velocity.width) > 800 {
                            onSwipe(projected > 0)
                        }
                        withAnimation(.spring(duration: 0.4, bounce: 0.3)) {
                            offset = .zero
                        }
                    }
            )
    }
}
