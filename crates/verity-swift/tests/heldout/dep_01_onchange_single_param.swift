import SwiftUI

struct SearchScreen: View {
    @State private var query = ""
    @State private var results: [String] = []
    private let catalog = ["Apple", "Apricot", "Banana", "Blueberry", "Cherry", "Coconut"]

    var body: some View {
        NavigationStack {
            List(results, id: \.self) { item in
                Text(item)
            }
            .searchable(text: $query, prompt: "Fruit")
            .onChange(of: query) { newValue in
                results = catalog.filter { $0.localizedCaseInsensitiveContains(newValue) }
            }
            .navigationTitle("Fruit")
        }
        .onAppear { results = catalog }
    }
}
