import Foundation

func rateLimitRemaining(for url: URL) async throws -> Int? {
    let (_, response) = try await URLSession.shared.data(from: url)
    let headers = response.allHeaderFields
    if let value = headers["X-RateLimit-Remaining"] as? String {
        return Int(value)
    }
    return nil
}
