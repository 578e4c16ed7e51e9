import Foundation

struct Progress: Sendable, Equatable {
    let completed: Int
    let total: Int
    var fraction: Double { total == 0 ? 0 : Double(completed) / Double(total) }
}

actor DownloadManager {
    private var continuations: [UUID: AsyncStream<Progress>.Continuation] = [:]

    func progressUpdates() -> AsyncStream<Progress> {
        let (stream, continuation) = AsyncStream.makeStream(of: Progress.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuations[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.remove(id) }
        }
        return stream
    }

    func report(_ progress: Progress) {
        for continuation in continuations.values {
            continuation.yield(progress)
        }
        if progress.completed == progress.total {
            continuations.values.forEach { $0.finish() }
            continuations.removeAll()
        }
    }

    private func remove(_ id: UUID) {
        continuations[id] = nil
    }
}
