import StoreKit

enum PurchaseOutcome {
    case bought(String)
    case cancelled
    case waiting
}

func buy(_ product: Product) async throws -> PurchaseOutcome {
    let result = try await product.purchase()
    switch result {
    case .success(let verification):
        switch verification {
        case .verified(let transaction):
            await transaction.finish()
            return .bought(transaction.productID)
        case .unverified(_, let error):
            throw error
        }
    case .userCancelled:
        return .cancelled
    case .pending:
        return .waiting
    @unknown default:
        return .cancelled
    }
}
