import SwiftUI

struct PopupBadge: View {
    @State private var shown = false

    var body: some View {
        Circle()
            .fill(.red)
            .frame(width: 24, height: 24)
            .scaleEffect(shown ? 1 : 0.1)
            .onAppear {
                withAnimation(.easeInOutBack) {
                    shown = true
                }
            }
    }
}
