import Foundation

struct Article: Decodable, Sendable {
    let id: Int
    let title: String
}

actor FeedLoader {
    private let session: URLSession
    private var cache: [URL: [Article]] = [:]

    init(session: URLSession = .shared) {
        self.session = session
    }

    func loadAll(from urls: [URL]) async throws -> [Article] {
        try await withThrowingTaskGroup(of: [Article].self) { group in
            for url in urls {
                group.addTask {
                    let (data, _) = try await URLSession.shared.data(from: url)
                    return try JSONDecoder().decode([Article].self, from: data)
                }
            }
            var merged: [Article] = []
            for try await batch in group {
                merged.append(contentsOf: batch)
            }
            return merged.sorted { $0.id < $1.id }
        }
    }

    func cached(_ url: URL) -> [Article]? {
        cache[url]
    }
}
