import SwiftUI

struct PullToDismiss<Content: View>: View {
    @Environment(\.dismiss) private var dismiss
    @ViewBuilder var content: Content

    var body: some View {
        content
            .gesture(
                DragGesture(minimumDistance: 20)
                    .onEnded { value in
                        if value.distance > 150 {
                            dismiss()
                        }
                    }
            )
    }
}
