import StoreKit

struct PlanSummary {
    let name: String
    let period: String
}

func summarize(_ product: Product) -> PlanSummary? {
    guard let info = product.subscription else { return nil }
    let unit = info.renewalPeriod.unit
    return PlanSummary(name: product.displayName, period: "\(unit)")
}
