import StoreKit
import Observation

@MainActor
@Observable
final class ProStore {
    private(set) var products: [Product] = []
    private(set) var purchasedIDs: Set<String> = []

    func load() async {
        do {
            products = try await Product.products(for: ["pro.monthly", "pro.yearly"])
                .sorted { $0.price < $1.price }
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

    func refreshEntitlements() async {
        for await entitlement in Transaction.currentEntitlements {
            guard case .verified(let transaction) = entitlement,
                  transaction.revocationDate == nil else { continue }
            purchasedIDs.insert(transaction.productID)
        }
    }

    func label(for product: Product) -> String {
        "\(product.displayName) – \(product.displayPrice)"
    }
}
