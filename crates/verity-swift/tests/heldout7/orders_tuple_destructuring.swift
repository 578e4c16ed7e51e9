import Foundation

struct Order: Decodable {
    let id: Int
    let total: Double
    let placedAt: Date
}

struct OrderReport {
    let endpoint: URL

    func dailyTotals() async throws -> [(day: Date, total: Double)] {
        var request = URLRequest(url: endpoint)
        request.setValue("Bearer token", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let orders = try decoder.decode([Order].self, from: data)

        for (index, order) in orders.enumerated() where order.total > 1000 {
            print("Large order #\(index): \(order.id)")
        }
        let grouped = Dictionary(grouping: orders) { Calendar.current.startOfDay(for: $0.placedAt) }
        return grouped
            .map { (day, dayOrders) in (day: day, total: dayOrders.reduce(0) { $0 + $1.total }) }
            .sorted { $0.day < $1.day }
    }
}
