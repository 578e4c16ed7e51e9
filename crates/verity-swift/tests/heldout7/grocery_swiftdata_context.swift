import SwiftUI
import SwiftData

@Model
final class GroceryItem {
    var name: String
    var isBought: Bool
    var addedAt: Date

    init(name: String) {
        self.name = name
        self.isBought = false
        self.addedAt = .now
    }
}

struct GroceryListView: View {
    @Environment(\.modelContext) private var context
    @Query(filter: #Predicate<GroceryItem> { !$0.isBought }, sort: \GroceryItem.addedAt)
    private var items: [GroceryItem]
    @State private var newName = ""

    var body: some View {
        List {
            TextField("Add item", text: $newName)
                .onSubmit {
                    context.insert(GroceryItem(name: newName))
                    newName = ""
                }
            ForEach(items) { item in
                Button(item.name) { item.isBought = true }
            }
            .onDelete { offsets in
                for index in offsets {
                    context.delete(items[index])
                }
                try? context.save()
            }
        }
    }
}
