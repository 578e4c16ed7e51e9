import SwiftUI
import TipKit

struct FavoriteTip: Tip {
    var title: Text { Text("Save as favorite") }
}

struct TipHost: View {
    var body: some View {
        TipView(FavoriteTip())
    }
}
