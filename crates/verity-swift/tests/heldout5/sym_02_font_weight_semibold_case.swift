import SwiftUI

struct PriceTag: View {
    let price: Decimal
    let isOnSale: Bool

    var body: some View {
        HStack(spacing: 6) {
            if isOnSale {
                Image(systemName: "tag.fill")
                    .foregroundStyle(.red)
            }
            Text(price, format: .currency(code: "USD"))
                .font(.system(size: 15, weight: .semiBold, design: .rounded))
        }
        .padding(.horizontal, 10)
        .padding(.vertical, 4)
        .background(.yellow.opacity(0.3), in: Capsule())
    }
}
