import SwiftUI

struct SlideDeck: View {
    @State private var index = 0
    let slides = ["Intro", "Problem", "Solution", "Thanks"]

    var body: some View {
        Text(slides[index])
            .font(.system(size: 48, weight: .bold))
            .frame(minWidth: 640, minHeight: 400)
            .focusable()
            .onKeyPress(.rightArrow) {
                index = min(index + 1, slides.count - 1)
                return .handled
            }
    }
}
