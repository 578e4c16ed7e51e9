import SwiftUI
import StoreKit

struct PaywallView: View {
    @State private var products: [Product] = []

    var body: some View {
        List(products) { product in
            HStack {
                VStack(alignment: .leading) {
                    Text(product.displayName).font(.headline)
                    Text(product.description).font(.caption)
                }
                Spacer()
                Button(product.localizedPrice) {
                    Task { _ = try? await product.purchase() }
                }
                .buttonStyle(.borderedProminent)
            }
        }
        .task {
            products = (try? await Product.products(for: ["pro.monthly", "pro.yearly"])) ?? []
        }
    }
}
