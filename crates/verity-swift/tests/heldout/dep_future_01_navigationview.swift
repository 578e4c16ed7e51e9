import SwiftUI

struct Recipe: Identifiable, Hashable {
    let id = UUID()
    let name: String
    let minutes: Int
}

struct RecipeBrowser: View {
    @State private var recipes = [
        Recipe(name: "Shakshuka", minutes: 25),
        Recipe(name: "Pad Thai", minutes: 35),
        Recipe(name: "Minestrone", minutes: 50),
    ]
    @State private var search = ""

    private var filtered: [Recipe] {
        search.isEmpty ? recipes : recipes.filter { $0.name.localizedCaseInsensitiveContains(search) }
    }

    var body: some View {
        NavigationView {
            List(filtered) { recipe in
                HStack {
                    Text(recipe.name)
                    Spacer()
                    Text("\(recipe.minutes) min")
                        .foregroundStyle(.secondary)
                }
            }
            .searchable(text: $search)
            .navigationTitle("Recipes")
        }
    }
}
