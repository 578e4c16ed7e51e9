import Foundation

func download(_ url: URL) async throws -> Data {
    let config = URLSessionConfiguration.default
    config.timeoutIntervalForRequest = 30
    let session = URLSession(configuration: config)
    return try await session.downloadData(from: url)
}
