import Foundation

final class RetryingUploader {
    let session = URLSession.shared

    func upload(_ data: Data, to url: URL) async throws {
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        for attempt in 1...3 {
            do {
                _ = try await session.upload(for: request, from: data)
                return
            } catch {
                try await Task.sleep(for: .seconds(Double(attempt)))
            }
        throw URLError(.timedOut)
    }

    func retry(_ data: Data, to url: URL) async throws {
        try await upload(data, to: url)
    }
}
