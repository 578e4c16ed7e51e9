import SwiftUI

struct FavoritesView: View {
    let favorites: [String]

    var body: some View {
        Group {
            if favorites.isEmpty {
                ContentUnavailableView("No Favorites", systemImage: "heart",
                                       description: Text("Tap the heart on any item to save it here."))
            } else {
                List(favorites, id: \.self) { Text($0) }
            }
        }
        .navigationTitle("Favorites")
    }
}
