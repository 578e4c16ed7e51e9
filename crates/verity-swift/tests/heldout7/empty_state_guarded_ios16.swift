import SwiftUI

struct FavoritesView: View {
    let favorites: [String]

    var body: some View {
        NavigationStack {
            Group {
                if favorites.isEmpty {
                    if #available(iOS 17.0, *) {
                        ContentUnavailableView("No Favorites",
                                               systemImage: "heart",
                                               description: Text("Tap the heart on any item."))
                    } else {
                        VStack(spacing: 8) {
                            Image(systemName: "heart").font(.largeTitle)
                            Text("No Favorites").font(.headline)
                        }
                        .foregroundStyle(.secondary)
                    }
                } else {
                    List(favorites, id: \.self) { Text($0) }
                }
            }
            .navigationTitle("Favorites")
        }
    }
}
