import SwiftUI
import Observation

struct CartItem: Identifiable {
    let id = UUID()
    let name: String
    let price: Decimal
    var quantity: Int
}

@Observable
final class Cart {
    var items: [CartItem] = []

    var total: Decimal {
        items.reduce(0) { $0 + $1.price * Decimal($1.quantity) }
    }

    func add(_ name: String, price: Decimal) {
        items.append(CartItem(name: name, price: price, quantity: 1))
    }
}
