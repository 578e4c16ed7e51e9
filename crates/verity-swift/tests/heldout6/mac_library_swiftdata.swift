import SwiftUI
import SwiftData

@Model
final class Book {
    @Attribute(.unique) var isbn: String
    var title: String
    var author: String
    var finished: Bool

    init(isbn: String, title: String, author: String, finished: Bool = false) {
        self.isbn = isbn
        self.title = title
        self.author = author
        self.finished = finished
    }
}

struct LibraryView: View {
    @Query(filter: #Predicate<Book> { !$0.finished }, sort: \Book.title) private var unread: [Book]
    @Environment(\.modelContext) private var context

    var body: some View {
        List(unread) { book in
            HStack {
                VStack(alignment: .leading) {
                    Text(book.title)
                    Text(book.author).font(.caption).foregroundStyle(.secondary)
                }
                Spacer()
                Button("Done") { book.finished = true }
            }
        }
        .onDisappear { try? context.save() }
    }
}

@main
struct LibraryApp: App {
    var body: some Scene {
        WindowGroup { LibraryView() }
            .modelContainer(for: Book.self)
    }
}
