import Foundation

struct DownloadInfo {
    let bytes: Int
    let etag: String?
    let mime: String?
}

func headInfo(for url: URL) async throws -> DownloadInfo {
    var request = URLRequest(url: url)
    request.httpMethod = "HEAD"
    let (_, response) = try await URLSession.shared.data(for: request)
    let length = response.expectedContentLength
    let mime = response.mimeType
    guard let http = response as? HTTPURLResponse, http.statusCode < 400 else {
        throw URLError(.badServerResponse)
    }
    return DownloadInfo(
        bytes: Int(length),
        etag: http.value(forHTTPHeaderField: "ETag"),
        mime: mime
    )
}
