import SwiftUI

struct Book: Identifiable, Hashable {
    let id: Int
    let title: String
    let author: String
}

struct LibraryView: View {
    let books: [Book]

    var body: some View {
        NavigationStack {
            List(books) { book in
                NavigationLink(value: book) {
                    VStack(alignment: .leading) {
                        Text(book.title)
                        Text(book.author).font(.caption).foregroundStyle(.secondary)
                    }
                }
            }
            .navigationDestination(for: Book.self) { book in
                Text(book.title).font(.largeTitle)
            }
            .navigationTitle("Library")
        }
    }
}
