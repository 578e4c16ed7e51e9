import SwiftUI
import Observation

@Observable
final class TimerModel {
    var remaining = 25 * 60
    var isRunning = false

    func tick() {
        guard isRunning, remaining > 0 else { return }
        remaining -= 1
    }
}

struct PomodoroView: View {
    @State private var model = TimerModel()
    private let clock = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    var body: some View {
        VStack(spacing: 20) {
            Text(Duration.seconds(model.remaining), format: .time(pattern: .minuteSecond))
                .font(.system(size: 64, weight: .thin, design: .monospaced))
            Button(model.isRunning ? "Pause" : "Start") {
                model.isRunning.toggle()
            }
            .buttonStyle(.borderedProminent)
        }
        .onReceive(clock) { _ in model.tick() }
    }
}
