import SwiftUI
import SwiftData

@Model
final class TodoItem {
    var title: String
    var isDone: Bool
    var createdAt: Date

    init(title: String, isDone: Bool = false, createdAt: Date = .now) {
        self.title = title
        self.isDone = isDone
        self.createdAt = createdAt
    }
}

struct TodoListView: View {
    @Environment(\.modelContext) private var context
    @Query(sort: \TodoItem.createdAt, order: .reverse) private var items: [TodoItem]
    @State private var newTitle = ""

    var body: some View {
        List {
            HStack {
                TextField("New task", text: $newTitle)
                Button("Add") {
                    context.insert(TodoItem(title: newTitle))
                    newTitle = ""
                }
                .disabled(newTitle.isEmpty)
            }
            ForEach(items) { item in
                Toggle(item.title, isOn: Bindable(item).isDone)
            }
            .onDelete { offsets in
                for index in offsets {
                    context.delete(items[index])
                }
            }
        }
    }
}
