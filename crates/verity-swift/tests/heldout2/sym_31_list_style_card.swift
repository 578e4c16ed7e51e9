import SwiftUI

struct RecipeListView: View {
    let recipes: [String]

    var body: some View {
        NavigationStack {
            List(recipes, id: \.self) { recipe in
                Label(recipe, systemImage: "fork.knife")
            }
            .listStyle(.card)
            .navigationTitle("Recipes")
        }
    }
}
