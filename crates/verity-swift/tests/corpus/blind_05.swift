import SwiftUI

struct Timer2: View {
    @State private var remaining = 60
    let timer = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    var body: some View {
        Text(Duration.seconds(remaining).formatted(.time(pattern: .minuteSecond)))
            .font(.system(size: 48, weight: .bold, design: .monospaced))
            .contentTransition(.numericText())
            .onReceive(timer) { _ in
                if remaining > 0 { remaining -= 1 }
            }
            .accessibilityLabel("\(remaining) seconds left")
    }
}
