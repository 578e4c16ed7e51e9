import SwiftUI

struct PromoCodeView: View {
    @State private var code = ""
    var onApply: (String) -> Void

    var body: some View {
        HStack {
            TextField("Promo code", text: $code)
                .textInputAutocapitalization(.characters)
                .disableAutocorrection(true)
            Button("Apply") {
                onApply(code)
            }
            .buttonStyle(.borderedProminent)
            .disabled(code.isEmpty)
        }
        .padding()
    }
}
