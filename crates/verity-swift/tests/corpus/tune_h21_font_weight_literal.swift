import SwiftUI

struct PriceTag: View {
    let price: Decimal

    var body: some View {
        Text(price, format: .currency(code: "USD"))
            .fontWeight(.extraBold)
            .foregroundStyle(.green)
    }
}
