import SwiftUI

struct Fader: View {
    @State private var visible = true

    var body: some View {
        Text("Hi")
            .opacity(visible ? 1 : 0)
            .onTapGesture {
                visible.toggle()
            }
    }
}

func fadeAll() {
    withSpringAnimation(duration: 0.3) {
        print("animated")
    }
}
