import SwiftUI

struct SwipeCard: View {
    @State private var offset: CGSize = .zero
    @State private var scale: CGFloat = 1
    @State private var likes = 0

    var body: some View {
        RoundedRectangle(cornerRadius: 20)
            .fill(.orange.gradient)
            .frame(width: 260, height: 360)
            .overlay {
                Text("\(likes)")
                    .font(.largeTitle.bold())
                    .contentTransition(.numericText())
            }
            .scaleEffect(scale)
            .offset(offset)
            .rotationEffect(.degrees(Double(offset.width) / 20))
            .gesture(
                DragGesture()
                    .onChanged { value in offset = value.translation }
                    .onEnded { value in
                        withAnimation(.spring(duration: 0.4, bounce: 0.3)) {
                            if abs(value.predictedEndTranslation.width) > 200 {
                                likes += 1
                            }
                            offset = .zero
                        }
                    }
            )
            .simultaneousGesture(
                MagnifyGesture()
                    .onChanged { value in scale = value.magnification }
                    .onEnded { _ in withAnimation(.bouncy) { scale = 1 } }
            )
            .sensoryFeedback(.increase, trigger: likes)
    }
}
