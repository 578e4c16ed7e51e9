import SwiftUI

struct StockQuote: Identifiable {
    let id: String
    let price: Double
    let change: Double
}

struct StockRow: View {
    let quote: StockQuote

    var body: some View {
        HStack {
            Text(quote.id)
                .font(.system(.body, design: .monospaced).bold())
            Spacer()
            VStack(alignment: .trailing) {
                Text(quote.price, format: .currency(code: "USD"))
                Text(quote.change, format: .percent.precision(.fractionLength(2)))
                    .font(.caption)
                    .foregroundColor(quote.change >= 0 ? .green : .red)
            }
        }
    }
}
