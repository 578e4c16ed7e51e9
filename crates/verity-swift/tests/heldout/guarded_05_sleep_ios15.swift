import Foundation

enum Backoff {
    static func pause(seconds: Double) async throws {
        if #available(iOS 16.0, macOS 13.0, *) {
            try await Task.sleep(for: .seconds(seconds))
        } else {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        }
    }

    static func retry<T>(times: Int, _ body: () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await body()
            } catch {
                attempt += 1
                if attempt >= times { throw error }
                try await pause(seconds: Double(attempt) * 0.5)
            }
        }
    }
}
