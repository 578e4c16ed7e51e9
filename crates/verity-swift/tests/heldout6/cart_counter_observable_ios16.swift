import SwiftUI
import Observation

@Observable
final class CartModel {
    var items: [String] = []
    var total: Decimal = 0

    func add(_ name: String, price: Decimal) {
        items.append(name)
        total += price
    }
}

struct CartBadge: View {
    var cart: CartModel

    var body: some View {
        Label("\(cart.items.count)", systemImage: "cart")
            .font(.headline)
    }
}
