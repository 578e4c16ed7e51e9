import Foundation

actor DownloadProgressHub {
    private var continuations: [UUID: AsyncStream<Double>.Continuation] = [:]
    private(set) var lastValue: Double = 0

    func updates() -> AsyncStream<Double> {
        let id = UUID()
        return AsyncStream { continuation in
            continuations[id] = continuation
            continuation.onTermination = { _ in
                Task { await self.remove(id) }
            }
        }
    }

    func publish(_ value: Double) {
        lastValue = value
        for continuation in continuations.values {
            continuation.yield(value)
        }
        if value >= 1 {
            continuations.values.forEach { $0.finish() }
            continuations.removeAll()
        }
    }

    private func remove(_ id: UUID) {
        continuations[id] = nil
    }

    nonisolated func label(for value: Double) -> String {
        value.formatted(.percent)
    }
}

func watch(_ hub: DownloadProgressHub) async throws {
    for await value in await hub.updates() {
        print(hub.label(for: value))
        try await Task.sleep(for: .milliseconds(100))
    }
}
