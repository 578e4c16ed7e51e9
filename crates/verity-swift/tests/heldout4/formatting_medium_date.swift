import SwiftUI

struct Receipt: Identifiable {
    let id: UUID
    let merchant: String
    let purchasedAt: Date
    let total: Decimal
}

struct ReceiptRow: View {
    let receipt: Receipt

    var body: some View {
        HStack {
            VStack(alignment: .leading) {
                Text(receipt.merchant)
                    .font(.body.weight(.semibold))
                Text(receipt.purchasedAt.formatted(date: .medium, time: .omitted))
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
            Spacer()
            Text(receipt.total, format: .currency(code: "USD"))
        }
    }
}
