import SwiftUI

struct PriceTagView: View {
    let amount: Decimal
    let currencyCode: String

    var body: some View {
        VStack(spacing: 2) {
            Text(amount, format: .currency(code: currencyCode))
                .font(.system(size: 28, weight: .extraBold, design: .rounded))
            Text("per month")
                .font(.footnote)
                .foregroundStyle(.secondary)
        }
        .padding()
        .background(.yellow.opacity(0.3), in: RoundedRectangle(cornerRadius: 12))
    }
}
