import SwiftUI
import SwiftData

@Model
final class Bookmark {
    var title: String
    var url: URL
    var addedAt: Date

    init(title: String, url: URL, addedAt: Date = .now) {
        self.title = title
        self.url = url
        self.addedAt = addedAt
    }
}

extension ModelContext {
    func saveIfNeeded() throws {
        if hasChanges {
            try save()
        }
    }

    func count<T: PersistentModel>(of type: T.Type) -> Int {
        (try? fetchCount(FetchDescriptor<T>())) ?? 0
    }
}

struct BookmarksView: View {
    @Environment(\.modelContext) private var context
    @Query(sort: \Bookmark.addedAt, order: .reverse) private var bookmarks: [Bookmark]

    var body: some View {
        List {
            ForEach(bookmarks) { bookmark in
                Link(bookmark.title, destination: bookmark.url)
            }
            .onDelete { offsets in
                offsets.map { bookmarks[$0] }.forEach { context.delete($0) }
                try? context.saveIfNeeded()
            }
        }
        .navigationTitle("\(context.count(of: Bookmark.self)) bookmarks")
    }
}
