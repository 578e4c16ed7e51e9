import StoreKit

@MainActor
final class EntitlementManager: ObservableObject {
    @Published private(set) var purchased: Set<String> = []
    private var updates: Task<Void, Never>?

    init() {
        updates = Task {
            for await result in Transaction.updates {
                if case .verified(let transaction) = result {
                    await self.refresh()
                    await transaction.finish()
                }
            }
        }
    }

    func refresh() async {
        var ids = Set<String>()
        for await result in Transaction.currentEntitlements {
            if case .verified(let transaction) = result, transaction.revocationDate == nil {
                ids.insert(transaction.productID)
            }
        }
        purchased = ids
    }

    func buy(_ product: Product) async throws {
        switch try await product.purchase() {
        case .success(.verified(let transaction)):
            await transaction.finish()
            await refresh()
        case .success(.unverified), .userCancelled, .pending:
            break
        @unknown default:
            break
        }
    }
}
