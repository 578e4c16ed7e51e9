import Foundation

actor EpisodeDownloader {
    private var inFlight: [URL: Task<URL, Error>] = [:]

    func download(_ remote: URL) async throws -> URL {
        if let existing = inFlight[remote] {
            return try await existing.value
        }
        let task = Task<URL, Error> {
            let (temporary, response) = try await URLSession.shared.download(from: remote)
            guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
                throw URLError(.badServerResponse)
            }
            let destination = URL.documentsDirectory.appending(path: remote.lastPathComponent)
            if FileManager.default.fileExists(atPath: destination.path(percentEncoded: false)) {
                try FileManager.default.removeItem(at: destination)
            }
            try FileManager.default.moveItem(at: temporary, to: destination)
            return destination
        }
        inFlight[remote] = task
        defer { inFlight[remote] = nil }
        return try await task.value
    }
}
