import SwiftUI

struct SwipeCard: View {
    let title: String
    var onSwipe: (Bool) -> Void
    @State private var offset: CGSize = .zero
    @State private var scale: CGFloat = 1

    var body: some View {
        RoundedRectangle(cornerRadius: 20)
            .fill(.orange.gradient)
            .overlay { Text(title).font(.title.bold()).foregroundStyle(.white) }
            .frame(width: 300, height: 400)
            .scaleEffect(scale)
            .rotationEffect(.degrees(offset.width / 20))
            .offset(offset)
            .gesture(
                DragGesture()
                    .onChanged { value in offset = value.translation }
                    .onEnded { value in
                        if abs(value.predictedEndTranslation.width) > 200 {
                            onSwipe(value.predictedEndTranslation.width > 0)
                        }
                        withAnimation(.spring(duration: 0.4, bounce: 0.3)) { offset = .zero }
                    }
            )
            .simultaneousGesture(
                MagnifyGesture()
                    .onChanged { value in scale = value.magnification }
                    .onEnded { _ in withAnimation(.bouncy) { scale = 1 } }
            )
    }
}
