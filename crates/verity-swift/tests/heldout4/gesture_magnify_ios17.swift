import SwiftUI

struct PinchableMap: View {
    @State private var zoom: CGFloat = 1
    @GestureState private var live: CGFloat = 1

    var body: some View {
        Image(systemName: "map")
            .font(.system(size: 120))
            .scaleEffect(zoom * live)
            .gesture(
                MagnifyGesture()
                    .updating($live) { value, state, _ in
                        state = value.magnification
                    }
                    .onEnded { value in
                        zoom = min(max(zoom * value.magnification, 0.5), 5)
                    }
            )
    }
}
