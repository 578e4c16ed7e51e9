import StoreKit

final class EntitlementObserver {
    private var updatesTask: Task<Void, Never>?
    private(set) var unlocked: Set<String> = []

    func start() {
        updatesTask = Task.detached(priority: .background) { [weak self] in
            for await result in Transaction.updates {
                guard case .verified(let transaction) = result else { continue }
                await transaction.finish()
                await self?.refresh()
            }
        }
    }

    @MainActor
    func refresh() async {
        var ids: Set<String> = []
        for await result in Transaction.currentEntitlements {
            if case .verified(let transaction) = result, transaction.revocationDate == nil {
                ids.insert(transaction.productID)
            }
        }
        unlocked = ids
    }

    deinit { updatesTask?.cancel() }
}
