import SwiftUI

struct ShoppingListView: View {
    @State private var items: [String] = ["Milk", "Eggs"]
    @State private var showingAdd = false

    var body: some View {
        NavigationStack {
            List {
                ForEach(items, id: \.self) { item in
                    Text(item)
                }
                .onDelete { items.remove(atOffsets: $0) }
            }
            .navigationTitle("Groceries")
            .navigationBarItems(trailing: Button {
                showingAdd = true
            } label: {
                Image(systemName: "plus")
            })
            .sheet(isPresented: $showingAdd) {
                Text("Add item")
            }
        }
    }
}
