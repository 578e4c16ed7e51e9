import Foundation

struct AnalyticsEvent: Encodable {
    let name: String
    let parameters: [String: String]
    let timestamp: Date
}

struct AnalyticsUploader {
    let endpoint: URL

    func upload(_ events: [AnalyticsEvent]) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .compact]
        encoder.dateEncodingStrategy = .iso8601
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try encoder.encode(events)
        _ = try await URLSession.shared.data(for: request)
    }
}
