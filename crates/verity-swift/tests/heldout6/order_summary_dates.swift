import SwiftUI

struct Order: Identifiable {
    let id = UUID()
    let placedAt: Date
    let total: Double
    let discount: Double
}

struct OrderSummaryRow: View {
    let order: Order

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(order.placedAt.formatted(date: .abbreviated, time: .shortened))
                .font(.headline)
            Text(order.placedAt.formatted(.relative(presentation: .named)))
                .font(.caption)
                .foregroundStyle(.secondary)
            HStack {
                Text(order.total.formatted(.currency(code: "EUR")))
                Spacer()
                Text(order.discount.formatted(.percent.precision(.fractionLength(1))))
                    .foregroundStyle(.green)
            }
        }
        .padding(.vertical, 6)
    }
}
