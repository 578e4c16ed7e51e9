import SwiftUI

struct OrderSummary: View {
    let placed: Date
    let total: Decimal
    let discount: Double
    let items: [String]
    let packageBytes: Int64
    let elapsed: Duration

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            Text(placed.formatted(.dateTime.year().month(.wide).day()))
            Text(total, format: .currency(code: "EUR"))
            Text(discount.formatted(.percent.precision(.fractionLength(1))))
            Text(items.formatted(.list(type: .and)))
            Text(packageBytes.formatted(.byteCount(style: .file)))
            Text(elapsed.formatted(.time(pattern: .minuteSecond)))
        }
        .font(.callout)
    }
}
