import Foundation

final class BatteryMonitor {
    func levels(every interval: TimeInterval) -> AsyncStream<Float> {
        AsyncStream { continuation in
            let timer = Timer.scheduledTimer(withTimeInterval: interval, repeats: true) { _ in
                let level = Float.random(in: 0...1)
                continuation.send(level)
            }
            continuation.onTermination = { _ in
                timer.invalidate()
            }
        }
    }
}

func printLevels() async {
    let monitor = BatteryMonitor()
    for await level in monitor.levels(every: 1).prefix(5) {
        print(level.formatted(.percent.precision(.fractionLength(0))))
    }
}
