import SwiftUI

struct CartItem: Identifiable {
    let id = UUID()
    let name: String
    let price: Double
    let quantity: Int
}

struct CartSummary: View {
    let items: [CartItem]

    private var subtotal: Double {
        items.map { $0.price * Double($0.quantity) }.sum()
    }

    var body: some View {
        VStack(alignment: .trailing) {
            ForEach(items) { item in
                HStack {
                    Text("\(item.quantity)× \(item.name)")
                    Spacer()
                    Text(item.price * Double(item.quantity), format: .currency(code: "USD"))
                }
            }
            Divider()
            Text("Subtotal: \(subtotal.formatted(.currency(code: "USD")))").bold()
        }
    }
}
