import StoreKit

@MainActor
final class TipJar: ObservableObject {
    @Published private(set) var products: [Product] = []
    @Published private(set) var purchasedIDs: Set<String> = []
    private var updates: Task<Void, Never>?

    init() {
        updates = Task {
            for await result in Transaction.updates {
                if case .verified(let transaction) = result {
                    purchasedIDs.insert(transaction.productID)
                    await transaction.finish()
                }
            }
        }
    }

    func load() async throws {
        products = try await Product.products(for: ["tip.small", "tip.large"])
            .sorted { $0.price < $1.price }
    }

    func buy(_ product: Product) async throws -> Bool {
        switch try await product.purchase() {
        case .success(let verification):
            switch verification {
            case .verified(let transaction):
                purchasedIDs.insert(transaction.productID)
                await transaction.finish()
                return true
            case .unverified(_, let error):
                print("unverified: \(error)")
                return false
            }
        case .userCancelled, .pending:
            return false
        @unknown default:
            return false
        }
    }
}
