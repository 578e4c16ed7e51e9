import SwiftUI

struct Recipe: Hashable, Identifiable {
    let id: Int
    let name: String
    let minutes: Int
}

struct RecipeBrowser: View {
    let recipes: [Recipe]

    var body: some View {
        NavigationStack {
            List(recipes) { recipe in
                NavigationLink(recipe.name, value: recipe)
            }
            .navigationDestination(for: Recipe.self) { recipe in
                Text("\(recipe.name) takes \(recipe.minutes) minutes")
            }
            .navigationTitle("Recipes")
        }
    }
}
