import SwiftUI
import TipKit

struct FavoriteTip: Tip {
    var title: Text { Text("Save favorites") }
    var message: Text? { Text("Tap the star to keep this recipe.") }
    var image: Image? { Image(systemName: "star") }
}

struct RecipeDetail: View {
    private let tip = FavoriteTip()
    @State private var isFavorite = false

    var body: some View {
        VStack {
            TipView(tip, arrowEdge: .bottom)
            Button {
                isFavorite.toggle()
                tip.invalidate(reason: .actionPerformed)
            } label: {
                Image(systemName: isFavorite ? "star.fill" : "star")
            }
        }
        .task {
            try? Tips.configure([
                .displayFrequency(.daily),
                .datastoreLocation(.applicationDefault)
            ])
        }
    }
}
