import SwiftUI

struct RecipeSearchView: View {
    @State private var query = ""
    let recipes: [String]

    private var results: [String] {
        query.isEmpty ? recipes : recipes.filter { $0.localizedCaseInsensitiveContains(query) }
    }

    var body: some View {
        NavigationStack {
            List(results, id: \.self) { Text($0) }
                .overlay {
                    if results.isEmpty {
                        ContentUnavailableView.search(text: query)
                    }
                }
                .searchable(text: $query)
                .navigationTitle("Recipes")
        }
    }
}
