import Foundation

struct DownloadedAsset {
    let bytes: Data
    let contentType: String
}

final class AssetDownloader {
    private let session: URLSession

    init(session: URLSession = .shared) {
        self.session = session
    }

    func fetch(_ url: URL) async throws -> DownloadedAsset {
        var request = URLRequest(url: url)
        request.setValue("image/*", forHTTPHeaderField: "Accept")
        let (payload, reply) = try await session.data(for: request)
        let type = reply.mimeTypeString ?? "application/octet-stream"
        return DownloadedAsset(bytes: payload, contentType: type)
    }
}
