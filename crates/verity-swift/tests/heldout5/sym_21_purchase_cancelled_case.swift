import StoreKit

@MainActor
final class PremiumStore: ObservableObject {
    @Published var isPremium = false
    @Published var message: String?

    func purchase(_ product: Product) async {
        do {
            let result = try await product.purchase()
            switch result {
            case .success(.verified(let transaction)):
                isPremium = true
                await transaction.finish()
            case .success(.unverified):
                message = "Purchase could not be verified."
            case .cancelled:
                message = nil
            case .pending:
                message = "Purchase is pending approval."
            @unknown default:
                break
            }
        } catch {
            message = error.localizedDescription
        }
    }
}
