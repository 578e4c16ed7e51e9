import SwiftUI

struct PulsingHeart: View {
    var body: some View {
        Image(systemName: "heart.fill")
            .font(.system(size: 48))
            .foregroundStyle(.red)
            .phaseAnimator([false, true]) { content, grow in
                content.scaleEffect(grow ? 1.2 : 1.0)
            }
    }
}
