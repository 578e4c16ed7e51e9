import Foundation
import SwiftData

@Model
final class Bookmark {
    @Attribute(.unique) var url: URL
    var title: String
    var addedAt: Date

    init(url: URL, title: String, addedAt: Date = .now) {
        self.url = url
        self.title = title
        self.addedAt = addedAt
    }
}

func recentBookmarks(in context: ModelContext) throws -> [Bookmark] {
    var descriptor = FetchDescriptor<Bookmark>(sortBy: [SortDescriptor(\.addedAt, order: .reverse)])
    descriptor.fetchLimit = 20
    return try context.fetch(descriptor)
}
