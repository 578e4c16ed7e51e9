import SwiftUI
import Observation

@Observable
final class CartModel {
    struct Line: Identifiable {
        let id = UUID()
        var name: String
        var quantity: Int
        var unitPrice: Decimal
    }

    var lines: [Line] = []
    @ObservationIgnored var lastSync: Date?

    var total: Decimal {
        lines.reduce(0) { $0 + $1.unitPrice * Decimal($1.quantity) }
    }

    func add(_ name: String, price: Decimal) {
        if let index = lines.firstIndex(where: { $0.name == name }) {
            lines[index].quantity += 1
        } else {
            lines.append(Line(name: name, quantity: 1, unitPrice: price))
        }
    }
}

struct CartView: View {
    @State private var cart = CartModel()

    var body: some View {
        List {
            ForEach($cart.lines) { $line in
                Stepper("\(line.name) × \(line.quantity)", value: $line.quantity, in: 0...99)
            }
            LabeledContent("Total", value: cart.total, format: .currency(code: "USD"))
        }
        .toolbar {
            Button("Add coffee") { cart.add("Coffee", price: 3.5) }
        }
    }
}

#Preview("Cart") {
    NavigationStack { CartView() }
}
