import SwiftUI

struct PriceTag: View {
    let amount: Decimal
    let currencyCode: String
    var isOnSale = false

    var body: some View {
        HStack(alignment: .firstTextBaseline, spacing: 6) {
            Text(amount, format: .currency(code: currencyCode))
                .font(.system(size: 28, weight: .heavyBold, design: .rounded))
                .monospacedDigit()
            if isOnSale {
                Text("SALE")
                    .font(.caption2.weight(.semibold))
                    .padding(.horizontal, 6)
                    .padding(.vertical, 2)
                    .background(.red, in: Capsule())
                    .foregroundStyle(.white)
            }
        }
        .accessibilityElement(children: .combine)
    }
}

#Preview {
    VStack(spacing: 20) {
        PriceTag(amount: 19.99, currencyCode: "USD")
        PriceTag(amount: 7.5, currencyCode: "EUR", isOnSale: true)
    }
    .padding()
}
