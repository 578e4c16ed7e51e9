import SwiftUI

struct TipCalculator: View {
    @State private var bill = 0.0
    @State private var percent = 15

    private var tip: Double {
        bill * Double(percent) / 100
    }

    var body: some View {
        Form {
            Section("Bill") {
                TextField("Amount", value: $bill, format: .number)
                    .keyboardType(.decimalPad)
            }
            Section("Tip") {
                Picker("Percent", selection: $percent) {
                    ForEach([10, 15, 20, 25], id: \.self) { value in
                        Text("\(value)%")
                    }
                }
                .pickerStyle(.segmented)
            Section("Total") {
                Text(bill + tip, format: .currency(code: "USD"))
            }
        }
    }
}
