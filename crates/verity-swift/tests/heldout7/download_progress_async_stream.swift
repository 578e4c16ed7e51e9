import Foundation

actor DownloadCounter {
    private(set) var completed = 0
    func increment() { completed += 1 }
}

struct ProgressDownloader {
    let counter = DownloadCounter()

    func download(_ url: URL) -> AsyncStream<Double> {
        AsyncStream { continuation in
            let task = Task {
                do {
                    let (bytes, response) = try await URLSession.shared.bytes(from: url)
                    let expected = max(response.expectedContentLength, 1)
                    var received: Int64 = 0
                    var buffer = Data()
                    for try await byte in bytes {
                        if Task.isCancelled { break }
                        buffer.append(byte)
                        received += 1
                        if received % 65_536 == 0 {
                            continuation.yield(Double(received) / Double(expected))
                        }
                    }
                    await counter.increment()
                    continuation.yield(1)
                } catch {
                    continuation.yield(0)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
