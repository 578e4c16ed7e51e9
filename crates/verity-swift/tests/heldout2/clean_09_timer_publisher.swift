import SwiftUI
import Combine

struct CountdownView: View {
    @State private var remaining: Duration = .seconds(90)
    private let timer = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    var body: some View {
        Text(remaining.formatted(.time(pattern: .minuteSecond)))
            .font(.system(size: 56, weight: .bold, design: .rounded))
            .monospacedDigit()
            .onReceive(timer) { _ in
                if remaining > .zero {
                    remaining -= .seconds(1)
                }
            }
    }
}
