import SwiftUI

struct Recipe: Identifiable, Hashable {
    let id = UUID()
    let name: String
}

struct RecipeBrowser: View {
    let recipes: [Recipe]

    var body: some View {
        NavigationView {
            List(recipes) { recipe in
                NavigationLink(recipe.name) {
                    Text(recipe.name).font(.largeTitle)
                }
            }
            .navigationTitle("Recipes")
        }
    }
}
