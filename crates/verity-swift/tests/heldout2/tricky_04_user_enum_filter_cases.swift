import SwiftUI

enum TodoFilter: String, CaseIterable, Identifiable {
    case all, active, completed
    var id: Self { self }
}

struct TodoItem: Identifiable {
    let id = UUID()
    var title: String
    var done: Bool
}

struct TodoListView: View {
    @State private var filter: TodoFilter = .all
    @State private var items: [TodoItem] = []

    private var visible: [TodoItem] {
        switch filter {
        case .all: return items
        case .active: return items.filter { !$0.done }
        case .completed: return items.filter(\.done)
        }
    }

    var body: some View {
        VStack {
            Picker("Filter", selection: $filter) {
                ForEach(TodoFilter.allCases) { option in
                    Text(option.rawValue.capitalized).tag(option)
                }
            }
            .pickerStyle(.segmented)
            List(visible) { item in
                Text(item.title)
                    .strikethrough(item.done)
            }
        }
    }
}
