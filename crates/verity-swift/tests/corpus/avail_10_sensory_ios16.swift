import SwiftUI

struct Tapper: View {
    @State private var taps = 0
    var body: some View {
        Button("Tap") { taps += 1 }
            .sensoryFeedback(.success, trigger: taps)
    }
}
