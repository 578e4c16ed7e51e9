import Foundation

@MainActor
final class PollingViewModel: ObservableObject {
    @Published private(set) var status = "idle"
    private var pollTask: Task<Void, Never>?

    func startPolling(_ check: @escaping @Sendable () async -> String) {
        pollTask?.cancel()
        pollTask = Task {
            while !Task.isCancelled {
                status = await check()
                try? await Task.sleep(seconds: 5)
            }
        }
    }

    func stop() {
        pollTask?.cancel()
        pollTask = nil
    }
}
