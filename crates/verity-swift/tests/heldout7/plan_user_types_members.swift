import Foundation

struct Plan {
    let id: String
    let price: Decimal
    let currency: String

    var localizedPrice: String {
        price.formatted(.currency(code: currency))
    }
}

struct Subscriber {
    var email: String
    var plans: [Plan]
    var expiresAt: Date

    var isActive: Bool { expiresAt > .now }

    func unique() -> [Plan] {
        var seen = Set<String>()
        return plans.filter { seen.insert($0.id).inserted }
    }

    mutating func renew(days: Int) {
        expiresAt = Calendar.current.date(byAdding: .day, value: days, to: expiresAt) ?? expiresAt
    }
}

func summary(for subscriber: Subscriber) -> String {
    let names = subscriber.unique().map(\.localizedPrice).joined(separator: ", ")
    return subscriber.isActive ? "Active: \(names)" : "Expired"
}
