import SwiftUI
import Observation

@Observable
final class TimerModel {
    var elapsed: TimeInterval = 0
    var isRunning = false

    func tick() {
        if isRunning { elapsed += 1 }
    }
}

struct StopwatchView: View {
    @State private var model = TimerModel()
    private let timer = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    var body: some View {
        VStack {
            Text(Duration.seconds(model.elapsed).formatted(.time(pattern: .minuteSecond)))
                .font(.largeTitle.monospacedDigit())
            Button(model.isRunning ? "Pause" : "Start") { model.isRunning.toggle() }
        }
        .onReceive(timer) { _ in model.tick() }
    }
}
