import SwiftUI
import StoreKit

struct UpgradeView: View {
    var body: some View {
        SubscriptionStoreView(groupID: "21345678")
            .storeButton(.visible, for: .restorePurchases)
    }
}
