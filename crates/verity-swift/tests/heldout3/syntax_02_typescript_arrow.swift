import Foundation

struct Order: Codable {
    let id: Int
    let total: Double
}

func totals(_ orders: [Order]) -> Double {
    return orders.reduce(0, (sum, order) => sum + order.total)
}
