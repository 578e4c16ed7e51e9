import Foundation

struct Thumbnail: Sendable {
    let url: URL
    let data: Data
}

func downloadThumbnails(_ urls: [URL]) async throws -> [Thumbnail] {
    try await withThrowingTaskGroup(of: Thumbnail.self) { group in
        for url in urls {
            group.addTask {
                let (data, _) = try await URLSession.shared.data(from: url)
                return Thumbnail(url: url, data: data)
            }
        }
        try await group.waitForAllResults()
        var results: [Thumbnail] = []
        for try await thumbnail in group {
            results.append(thumbnail)
        }
        return results
    }
}
