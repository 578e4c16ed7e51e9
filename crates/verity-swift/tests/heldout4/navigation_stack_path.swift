import SwiftUI

struct Recipe: Identifiable, Hashable {
    let id: Int
    let name: String
}

struct RecipeBrowser: View {
    @State private var path = NavigationPath()
    let recipes: [Recipe]

    var body: some View {
        NavigationStack(path: $path) {
            List(recipes) { recipe in
                Button(recipe.name) { path.append(recipe) }
            }
            .navigationDestination(for: Recipe.self) { recipe in
                VStack {
                    Text(recipe.name).font(.largeTitle)
                    Button("Back") { path.removeLast() }
                    Button("Home") { path.removeLast(path.count) }
                        .disabled(path.isEmpty)
                }
            }
            .navigationTitle("Recipes")
        }
    }
}
