import SwiftUI
import SwiftData

@Model
final class Book {
    var title: String
    var author: String
    var isRead: Bool

    init(title: String, author: String, isRead: Bool = false) {
        self.title = title
        self.author = author
        self.isRead = isRead
    }
}

struct UnreadBooksView: View {
    @Environment(\.modelContext) private var context
    @Query(filter: #Predicate<Book> { !$0.isRead }, sort: [SortDescriptor(\Book.title)])
    private var unread: [Book]

    var body: some View {
        List {
            ForEach(unread) { book in
                VStack(alignment: .leading) {
                    Text(book.title).font(.headline)
                    Text(book.author).font(.subheadline)
                }
                .swipeActions {
                    Button("Read") { book.isRead = true }
                        .tint(.green)
                    Button("Delete", role: .destructive) { context.delete(book) }
                }
            }
        }
        .toolbar {
            Button("Add") {
                context.insert(Book(title: "New Book", author: "Unknown"))
            }
        }
    }
}

@main
struct LibraryApp: App {
    var body: some Scene {
        WindowGroup {
            NavigationStack { UnreadBooksView() }
        }
        .modelContainer(for: Book.self)
    }
}
