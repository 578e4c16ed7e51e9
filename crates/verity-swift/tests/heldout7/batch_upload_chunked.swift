import Foundation

struct AnalyticsUploader {
    let endpoint: URL

    func upload(eventIDs ids: [String]) async throws {
        for batch in ids.chunked(into: 50) {
            var request = URLRequest(url: endpoint)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let body = try JSONEncoder().encode(["events": batch])
            let (_, response) = try await URLSession.shared.upload(for: request, from: body)
            guard (response as? HTTPURLResponse)?.statusCode == 202 else {
                throw URLError(.cannotParseResponse)
            }
        }
    }
}
