import SwiftUI
import TipKit

struct FavoriteTip: Tip {
    var title: Text { Text("Save favorites") }
    var message: Text? { Text("Tap the heart to keep this recipe.") }
    var image: Image? { Image(systemName: "heart") }
}

struct RecipeHeader: View {
    private let tip = FavoriteTip()
    @State private var isFavorite = false

    var body: some View {
        VStack {
            TipView(tip)
            Button {
                isFavorite.toggle()
                tip.invalidate(reason: .actionPerformed)
            } label: {
                Image(systemName: isFavorite ? "heart.fill" : "heart")
            }
            .popoverTip(tip)
        }
        .task {
            try? Tips.configure([
                .displayFrequency(.immediate),
                .datastoreLocation(.applicationDefault)
            ])
        }
    }
}
