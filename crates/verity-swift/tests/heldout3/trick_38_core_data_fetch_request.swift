import SwiftUI
import CoreData

@objc(Book)
final class Book: NSManagedObject {
    @NSManaged var title: String?
    @NSManaged var added: Date?
}

struct BookshelfView: View {
    @Environment(\.managedObjectContext) private var viewContext
    @FetchRequest(sortDescriptors: [SortDescriptor(\Book.added, order: .reverse)], animation: .default)
    private var books: FetchedResults<Book>

    var body: some View {
        List {
            ForEach(books) { book in
                Text(book.title ?? "Untitled")
            }
            .onDelete { offsets in
                offsets.map { books[$0] }.forEach(viewContext.delete)
                if viewContext.hasChanges {
                    try? viewContext.save()
                }
            }
        }
    }
}
