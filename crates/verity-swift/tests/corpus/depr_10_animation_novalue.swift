import SwiftUI

struct Pulse: View {
    @State private var on = false
    var body: some View {
        Circle()
            .scaleEffect(on ? 1.2 : 1)
            .animation(.easeInOut)
            .onAppear { on = true }
    }
}
