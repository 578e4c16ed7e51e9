import StoreKit

@MainActor
final class Store: ObservableObject {
    @Published private(set) var products: [Product] = []
    @Published private(set) var purchased: Set<String> = []
    private var updates: Task<Void, Never>?

    init() {
        updates = Task {
            for await update in Transaction.updates {
                if case .verified(let transaction) = update {
                    purchased.insert(transaction.productID)
                    await transaction.finish()
                }
            }
        }
    }

    func load() async throws {
        products = try await Product.products(for: ["coffee.small", "coffee.large"])
            .sorted { $0.price < $1.price }
    }

    func buy(_ product: Product) async throws {
        switch try await product.purchase() {
        case .success(.verified(let transaction)):
            purchased.insert(transaction.productID)
            await transaction.finish()
        case .success(.unverified):
            break
        case .userCancelled, .pending:
            break
        @unknown default:
            break
        }
    }

    func label(for product: Product) -> String {
        "\(product.displayName) – \(product.displayPrice)"
    }
}
