import StoreKit

@MainActor
final class SubscriptionStatus: ObservableObject {
    @Published private(set) var activeUntil: Date?

    func refresh() async {
        for await entitlement in Transaction.currentEntitlements {
            if case .verified(let transaction) = entitlement,
               transaction.revocationDate == nil,
               transaction.productType == .autoRenewable {
                activeUntil = transaction.expirationDate
            }
        }
    }
}
