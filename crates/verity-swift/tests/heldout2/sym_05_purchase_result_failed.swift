import StoreKit

enum PurchaseOutcome {
    case purchased
    case cancelled
    case waiting
    case error
}

func buy(_ product: Product) async throws -> PurchaseOutcome {
    let result = try await product.purchase()
    switch result {
    case .success(let verification):
        if case .verified(let transaction) = verification {
            await transaction.finish()
            return .purchased
        }
        return .error
    case .userCancelled:
        return .cancelled
    case .pending:
        return .waiting
    case .failed:
        return .error
    @unknown default:
        return .error
    }
}
