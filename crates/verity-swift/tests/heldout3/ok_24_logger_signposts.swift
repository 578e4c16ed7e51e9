import OSLog
import Foundation

enum Log {
    static let network = Logger(subsystem: Bundle.main.bundleIdentifier ?? "app", category: "network")
}

func timedRequest(_ url: URL) async throws -> Data {
    let started = Date()
    Log.network.info("GET \(url.absoluteString, privacy: .public)")
    let (data, _) = try await URLSession.shared.data(from: url)
    let ms = Int(Date().timeIntervalSince(started) * 1_000)
    Log.network.debug("finished in \(ms) ms, \(data.count) bytes")
    return data
}
