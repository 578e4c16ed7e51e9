import SwiftUI

struct Product: Identifiable, Hashable {
    let id: Int
    let name: String
    let price: Decimal

    var localizedPrice: String {
        price.formatted(.currency(code: Locale.current.currency?.identifier ?? "USD"))
    }
}

struct ProductRow: View {
    let product: Product

    var body: some View {
        HStack {
            Text(product.name)
            Spacer()
            Text(product.localizedPrice)
                .monospacedDigit()
        }
    }
}
