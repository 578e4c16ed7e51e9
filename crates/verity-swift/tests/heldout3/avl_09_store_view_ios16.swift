import SwiftUI
import StoreKit

struct UpgradeScreen: View {
    var body: some View {
        StoreView(ids: ["pro.monthly", "pro.yearly"])
            .productViewStyle(.compact)
    }
}
