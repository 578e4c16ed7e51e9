import SwiftUI
import StoreKit

struct TipJarView: View {
    var body: some View {
        VStack(spacing: 12) {
            Text("Support the app")
                .font(.title2.bold())
            StoreView(ids: ["tip.small", "tip.medium", "tip.large"])
                .productViewStyle(.compact)
        }
        .padding()
    }
}
