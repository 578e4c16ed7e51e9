import SwiftUI

struct Item: Identifiable, Hashable {
    let id = UUID()
    var title: String
    var done: Bool
}

struct TodoListView: View {
    @State private var items: [Item] = [
        Item(title: "Milk", done: false),
        Item(title: "Bread", done: true),
    ]
    @State private var newTitle = ""

    var body: some View {
        NavigationStack {
            List {
                ForEach($items) { $item in
                    Toggle(item.title, isOn: $item.done)
                }
                .onDelete { offsets in
                    items.remove(atOffsets: offsets)
                }
            }
            .navigationTitle("Todo")
            .toolbar {
                ToolbarItem(placement: .topBarTrailing) {
                    EditButton()
                }
            }
            .safeAreaInset(edge: .bottom) {
                HStack {
                    TextField("New item", text: $newTitle)
                        .textFieldStyle(.roundedBorder)
                    Button("Add") {
                        items.append(Item(title: newTitle, done: false))
                        newTitle = ""
                    }
                    .disabled(newTitle.isEmpty)
                }
                .padding()
            }
        }
    }
}

#Preview {
    TodoListView()
}
