import SwiftUI
import SwiftData

@Model
final class Bookmark {
    var url: URL
    var title: String
    var addedAt: Date

    init(url: URL, title: String) {
        self.url = url
        self.title = title
        self.addedAt = .now
    }
}

struct BookmarkExportButton: View {
    @Environment(\.modelContext) private var modelContext
    @State private var exportedCount = 0

    var body: some View {
        Button("Export bookmarks (\(exportedCount))") {
            let all = (try? modelContext.fetchAll(Bookmark.self)) ?? []
            exportedCount = all.count
        }
    }
}
