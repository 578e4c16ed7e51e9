import Foundation

struct Tick: Sendable {
    let index: Int
    let date: Date
}

final class Ticker: @unchecked Sendable {
    private var timer: Timer?

    func ticks(every interval: TimeInterval) -> AsyncStream<Tick> {
        AsyncStream(bufferingPolicy: .bufferingNewest(10)) { continuation in
            var index = 0
            let timer = Timer(timeInterval: interval, repeats: true) { _ in
                index += 1
                let result = continuation.yield(Tick(index: index, date: .now))
                if case .terminated = result {
                    continuation.finish()
                }
            }
            RunLoop.main.add(timer, forMode: .common)
            self.timer = timer
            continuation.onTermination = { @Sendable _ in
                timer.invalidate()
            }
        }
    }
}

func printFirstTicks() async {
    let ticker = Ticker()
    for await tick in ticker.ticks(every: 0.5).prefix(3) {
        print(tick.index, tick.date.formatted(date: .omitted, time: .standard))
    }
}

func numbers() -> AsyncThrowingStream<Int, Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self)
    Task {
        for value in 1...5 {
            continuation.yield(value)
        }
        continuation.finish()
    }
    return stream
}
