import SwiftUI

struct Recipe: Hashable, Identifiable {
    let id: Int
    let name: String
}

struct RecipeBrowser: View {
    @State private var path = NavigationPath()
    @State private var filterShown = false
    let recipes: [Recipe]

    var body: some View {
        NavigationStack(path: $path) {
            List(recipes) { recipe in
                NavigationLink(recipe.name, value: recipe)
            }
            .navigationTitle("Recipes")
            .navigationBarTitleDisplayMode(.large)
            .navigationDestination(for: Recipe.self) { recipe in
                Text(recipe.name)
                    .toolbar {
                        Button("Home") { path.removeLast(path.count) }
                    }
            }
            .toolbar {
                ToolbarItem(placement: .topBarTrailing) {
                    Button("Filter", systemImage: "line.3.horizontal.decrease") { filterShown = true }
                }
            }
            .sheet(isPresented: $filterShown) {
                Text("Filters")
                    .presentationDetents([.medium, .large, .fraction(0.25)])
                    .presentationDragIndicator(.visible)
                    .presentationCornerRadius(24)
            }
        }
    }
}
