import Foundation

actor RetryPolicy {
    private(set) var attempts = 0
    let maxAttempts: Int

    init(maxAttempts: Int = 3) {
        self.maxAttempts = maxAttempts
    }

    func run<T: Sendable>(_ operation: @Sendable () async throws -> T) async throws -> T {
        while true {
            do {
                attempts += 1
                return try await operation()
            } catch where attempts < maxAttempts {
                let delay = Double(1 << attempts)
                try await Task.sleep(for: .seconds(delay))
            }
        }
    }
}
