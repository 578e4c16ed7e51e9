import SwiftUI
import StoreKit

struct PaywallRow: View {
    let product: Product
    let onBuy: () -> Void

    var body: some View {
        HStack {
            VStack(alignment: .leading) {
                Text(product.displayName).font(.headline)
                Text(product.description).font(.subheadline).foregroundStyle(.secondary)
            }
            Spacer()
            Button(product.localizedPrice, action: onBuy)
                .buttonStyle(.borderedProminent)
        }
    }
}
