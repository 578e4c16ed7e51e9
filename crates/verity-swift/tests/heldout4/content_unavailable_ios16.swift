import SwiftUI

struct FavoritesList: View {
    let favorites: [String]

    var body: some View {
        Group {
            if favorites.isEmpty {
                ContentUnavailableView(
                    "No Favorites",
                    systemImage: "star",
                    description: Text("Tap the star on any item to save it here.")
                )
            } else {
                List(favorites, id: \.self) { Text($0) }
            }
        }
    }
}
