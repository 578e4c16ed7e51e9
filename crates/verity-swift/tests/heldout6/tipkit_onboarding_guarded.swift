import SwiftUI
import TipKit

@available(iOS 17.0, *)
struct FavoriteTip: Tip {
    var title: Text { Text("Save favorites") }
    var message: Text? { Text("Tap the star to keep a recipe for later.") }
    var image: Image? { Image(systemName: "star") }
}

struct FavoriteToolbar: View {
    var body: some View {
        VStack {
            if #available(iOS 17.0, *) {
                TipView(FavoriteTip())
            }
            Button("Favorite", systemImage: "star") {}
        }
        .task {
            if #available(iOS 17.0, *) {
                try? Tips.configure([.displayFrequency(.daily)])
            }
        }
    }
}
