import SwiftUI

struct Receipt: Identifiable {
    let id = UUID()
    let placedAt: Date
    let total: Double
    let discount: Double
}

struct ReceiptRow: View {
    let receipt: Receipt

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(receipt.placedAt.formatted(date: .abbreviated, time: .shortened))
                .font(.headline)
            HStack {
                Text(receipt.total, format: .currency(code: "EUR"))
                Spacer()
                Text(receipt.discount.formatted(.percent.precision(.fractionLength(1))))
                    .foregroundStyle(.secondary)
            }
            Text(receipt.placedAt, style: .relative)
                .font(.caption)
        }
        .padding(.vertical, 6)
    }
}
