import Foundation

enum RetryPolicy {
    static func run<T>(attempts: Int = 3, _ operation: () async throws -> T) async throws -> T {
        var lastError: Error?
        for attempt in 0..<attempts {
            do {
                return try await operation()
            } catch {
                lastError = error
                let delay = pow(2.0, Double(attempt))
                try await Task.sleep(seconds: delay)
            }
        }
        throw lastError ?? CancellationError()
    }
}
