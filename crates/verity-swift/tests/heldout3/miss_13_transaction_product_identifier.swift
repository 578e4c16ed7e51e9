import StoreKit

actor EntitlementStore {
    private(set) var owned: Set<String> = []

    func listen() async {
        for await update in Transaction.updates {
            if case .verified(let purchase) = update {
                owned.insert(purchase.productIdentifier)
                await purchase.finish()
            }
        }
    }
}
