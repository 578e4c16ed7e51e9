import StoreKit

@MainActor
final class EntitlementManager: ObservableObject {
    @Published private(set) var unlocked: Set<String> = []

    func refresh() async {
        var active: Set<String> = []
        for await result in Transaction.currentEntitlements {
            guard case .verified(let transaction) = result else { continue }
            if !transaction.isRevoked {
                active.insert(transaction.productID)
            }
        }
        unlocked = active
    }
}
