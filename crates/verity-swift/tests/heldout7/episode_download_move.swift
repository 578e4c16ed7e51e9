import Foundation

struct EpisodeDownloader {
    func download(_ remote: URL) async throws -> URL {
        let (temporary, response) = try await URLSession.shared.download(from: remote)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw URLError(.badServerResponse)
        }
        let destination = URL.documentsDirectory.appending(path: remote.lastPathComponent)
        let manager = FileManager.default
        if manager.fileExists(atPath: destination.path(percentEncoded: false)) {
            try manager.removeItem(at: destination)
        }
        try manager.moveItem(at: temporary, to: destination)
        return destination
    }
}
