import SwiftUI

struct Stopwatch: View {
    @State private var elapsed: TimeInterval = 0
    @State private var running = false
    private let tick = Timer.publish(every: 0.1, on: .main, in: .common).autoconnect()

    var body: some View {
        VStack(spacing: 20) {
            Text(Duration.seconds(elapsed), format: .time(pattern: .minuteSecond(padMinuteToLength: 2, fractionalSecondsLength: 1)))
                .font(.system(.largeTitle, design: .monospaced))
            Button(running ? "Stop" : "Start") { running.toggle() }
                .buttonStyle(.borderedProminent)
        }
        .onReceive(tick) { _ in
            if running { elapsed += 0.1 }
        }
    }
}
