import Foundation

final class Ticker {
    func ticks(count: Int, every seconds: Double) -> AsyncStream<Int> {
        AsyncStream { continuation in
            Task {
                for n in 1...count {
                    try? await Task.sleep(for: .seconds(seconds))
                    continuation.yield(n)
                }
                continuation.complete()
            }
        }
    }
}
