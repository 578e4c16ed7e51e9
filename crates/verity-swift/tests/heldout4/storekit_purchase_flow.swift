import StoreKit

@MainActor
final class Store: ObservableObject {
    @Published private(set) var products: [Product] = []
    @Published private(set) var purchasedIDs: Set<String> = []

    func load() async {
        do {
            products = try await Product.products(for: ["pro.monthly", "pro.yearly"])
        } catch {
            products = []
        }
    }

    func buy(_ product: Product) async throws {
        let result = try await product.purchase()
        switch result {
        case .success(let verification):
            if case .verified(let transaction) = verification {
                purchasedIDs.insert(transaction.productID)
                await transaction.finish()
            }
        case .userCancelled, .pending:
            break
        @unknown default:
            break
        }
    }

    func restore() async {
        try? await AppStore.sync()
    }

    func label(for product: Product) -> String {
        "\(product.displayName) – \(product.displayPrice)"
    }
}
