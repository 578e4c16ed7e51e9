import SwiftUI

struct TaskItem: Identifiable {
    let id = UUID()
    var title: String
    var done = false
}

struct TaskBoard: View {
    @State private var items: [TaskItem] = []
    @State private var search = ""
    @FocusState private var editing: Bool

    var body: some View {
        NavigationStack {
            List {
                ForEach($items) { $item in
                    TextField("Task", text: $item.title)
                        .focused($editing)
                        .swipeActions(edge: .leading, allowsFullSwipe: true) {
                            Button {
                                item.done.toggle()
                            } label: {
                                Label("Done", systemImage: "checkmark")
                            }
                            .tint(.green)
                        }
                        .contextMenu {
                            Button("Duplicate", systemImage: "plus.square.on.square") {
                                items.append(TaskItem(title: item.title))
                            }
                        }
                }
            }
            .searchable(text: $search, placement: .navigationBarDrawer(displayMode: .always))
            .toolbar {
                ToolbarItemGroup(placement: .keyboard) {
                    Spacer()
                    Button("Done") { editing = false }
                }
                ToolbarItem(placement: .topBarTrailing) {
                    Button("Add", systemImage: "plus") { items.append(TaskItem(title: "")) }
                }
            }
        }
    }
}
