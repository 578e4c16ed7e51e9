import SwiftUI

@available(iOS 17.0, *)
struct PulsingHeart: View {
    var body: some View {
        PhaseAnimator([false, true]) { beating in
            Image(systemName: "heart.fill")
                .font(.largeTitle)
                .foregroundStyle(.red)
                .scaleEffect(beating ? 1.2 : 1.0)
        } animation: { _ in
            .easeInOut(duration: 0.5)
        }
    }
}

struct LikeBadge: View {
    var body: some View {
        if #available(iOS 17.0, *) {
            PulsingHeart()
        } else {
            Image(systemName: "heart.fill").foregroundStyle(.red)
        }
    }
}
