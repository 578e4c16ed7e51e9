import Foundation

struct Thumbnail: Sendable {
    let id: Int
    let data: Data
}

func loadThumbnails(ids: [Int], base: URL) async throws -> [Thumbnail] {
    try await withThrowingTaskGroup(of: Thumbnail.self) { group in
        for id in ids {
            group.addTask {
                let url = base.appending(path: "thumbs/\(id).jpg")
                let (data, _) = try await URLSession.shared.data(from: url)
                return Thumbnail(id: id, data: data)
            }
        }
        let all = try await group.collectAll()
        return all.sorted { $0.id < $1.id }
    }
}
