import Foundation

struct Article: Sendable, Codable, Identifiable {
    let id: Int
    let title: String
}

actor ArticleCache {
    private var storage: [Int: Article] = [:]
    private var inFlight: [Int: Task<Article, Error>] = [:]

    func article(id: Int, loader: @Sendable @escaping (Int) async throws -> Article) async throws -> Article {
        if let cached = storage[id] { return cached }
        if let task = inFlight[id] { return try await task.value }
        let task = Task { try await loader(id) }
        inFlight[id] = task
        defer { inFlight[id] = nil }
        let article = try await task.value
        storage[id] = article
        return article
    }

    nonisolated func key(for id: Int) -> String {
        "article-\(id)"
    }
}

@MainActor
final class ArticleScreenModel {
    private let cache = ArticleCache()
    private(set) var title = ""

    func show(_ id: Int) async {
        let article = try? await cache.article(id: id) { id in
            let url = URL(string: "https://example.com/articles/\(id)")!
            let (data, _) = try await URLSession.shared.data(from: url)
            return try JSONDecoder().decode(Article.self, from: data)
        }
        title = article?.title ?? "Missing"
    }
}
