import SwiftUI
import StoreKit

struct PaywallView: View {
    @State private var products: [Product] = []
    @State private var purchasing = false

    var body: some View {
        List(products) { product in
            HStack {
                VStack(alignment: .leading) {
                    Text(product.displayName).font(.headline)
                    Text(product.description).font(.caption)
                }
                Spacer()
                Button(product.displayPrice) {
                    Task {
                        purchasing = true
                        _ = try? await product.purchase()
                        purchasing = false
                    }
                }
                .buttonStyle(.bordered)
                .disabled(purchasing)
            }
        }
        .task {
            products = (try? await Product.products(for: ["pro.month", "pro.year"])) ?? []
        }
    }
}
