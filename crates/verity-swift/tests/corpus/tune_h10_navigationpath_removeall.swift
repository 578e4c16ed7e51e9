import SwiftUI

struct Recipe: Hashable {
    let name: String
}

struct RecipesRoot: View {
    @State private var path = NavigationPath()
    let recipes: [Recipe]

    var body: some View {
        NavigationStack(path: $path) {
            List(recipes, id: \.self) { recipe in
                NavigationLink(recipe.name, value: recipe)
            }
            .navigationDestination(for: Recipe.self) { recipe in
                Button("Back to start") {
                    path.removeAll()
                }
                .navigationTitle(recipe.name)
            }
        }
    }
}
