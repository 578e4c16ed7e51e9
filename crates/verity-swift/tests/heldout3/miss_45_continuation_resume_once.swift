import Foundation

final class LegacyPinger: @unchecked Sendable {
    func ping(host: String, completion: @escaping @Sendable (Result<TimeInterval, Error>) -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
            completion(.success(0.05))
        }
    }
}

actor Reachability {
    private let pinger = LegacyPinger()

    func latency(to host: String) async throws -> TimeInterval {
        try await withCheckedThrowingContinuation { continuation in
            pinger.ping(host: host) { result in
                switch result {
                case .success(let seconds):
                    continuation.resumeOnce(returning: seconds)
                case .failure(let error):
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
