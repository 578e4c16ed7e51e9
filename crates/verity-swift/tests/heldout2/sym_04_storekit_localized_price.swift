import StoreKit
import SwiftUI

@MainActor
final class StoreModel: ObservableObject {
    @Published var products: [Product] = []

    func load() async {
        do {
            products = try await Product.products(for: ["pro.monthly", "pro.yearly"])
        } catch {
            products = []
        }
    }
}

struct PaywallView: View {
    @StateObject private var store = StoreModel()

    var body: some View {
        List(store.products, id: \.id) { product in
            HStack {
                Text(product.displayName)
                Spacer()
                Text(product.localizedPrice)
            }
        }
        .task { await store.load() }
    }
}
