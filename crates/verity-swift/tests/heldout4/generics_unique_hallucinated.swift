import Foundation

struct Article {
    let title: String
    let tags: [String]
}

func allTags(in articles: [Article]) -> [String] {
    let tags = articles.flatMap { $0.tags }.map { $0.lowercased() }
    return tags.unique().sorted()
}

func mostUsedTag(in articles: [Article]) -> String? {
    let counts = articles.flatMap(\.tags).reduce(into: [:]) { $0[$1, default: 0] += 1 }
    return counts.max { $0.value < $1.value }?.key
}
