import SwiftUI
import CoreData

@objc(Memo)
final class Memo: NSManagedObject {
    @NSManaged var text: String
    @NSManaged var createdAt: Date
}

extension Memo: Identifiable {}

struct MemoList: View {
    @Environment(\.managedObjectContext) private var viewContext
    @FetchRequest(sortDescriptors: [SortDescriptor(\.createdAt, order: .reverse)])
    private var memos: FetchedResults<Memo>

    var body: some View {
        List {
            ForEach(memos) { memo in
                VStack(alignment: .leading) {
                    Text(memo.text)
                    Text(memo.createdAt, format: .dateTime.day().month())
                        .font(.caption)
                }
            }
            .onDelete { offsets in
                offsets.map { memos[$0] }.forEach(viewContext.delete)
                try? viewContext.save()
            }
        }
    }
}
