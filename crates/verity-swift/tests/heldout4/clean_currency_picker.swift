import SwiftUI

struct CurrencyConverter: View {
    @State private var amount: Decimal = 100
    @State private var target = "EUR"
    let rate: Decimal = 0.92

    private var home: String {
        Locale.current.currency?.identifier ?? "USD"
    }

    var body: some View {
        Form {
            TextField("Amount", value: $amount, format: .currency(code: home))
            Picker("To", selection: $target) {
                ForEach(Array(Locale.commonISOCurrencyCodes.sorted().prefix(20)), id: \.self) { code in
                    Text(code).tag(code)
                }
            }
            Text(amount * rate, format: .currency(code: target))
                .font(.title2)
        }
    }
}
