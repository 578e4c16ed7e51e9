import SwiftUI

struct DraggableCard: View {
    @State private var offset: CGSize = .zero
    @State private var isExpanded = false
    @Namespace private var ns

    var body: some View {
        RoundedRectangle(cornerRadius: 16, style: .continuous)
            .fill(LinearGradient(colors: [.purple, .blue], startPoint: .topLeading, endPoint: .bottomTrailing))
            .frame(width: isExpanded ? 300 : 150, height: 200)
            .shadow(color: .black.opacity(0.2), radius: 8, x: 0, y: 4)
            .offset(offset)
            .gesture(
                DragGesture()
                    .onChanged { value in offset = value.translation }
                    .onEnded { _ in
                        withAnimation(.spring(response: 0.4, dampingFraction: 0.7)) {
                            offset = .zero
                        }
                    }
            )
            .onTapGesture {
                withAnimation(.easeInOut) { isExpanded.toggle() }
            }
            .animation(.default, value: isExpanded)
            .clipShape(.rect(cornerRadius: 12))
    }
}
