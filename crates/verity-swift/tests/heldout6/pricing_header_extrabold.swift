import SwiftUI

struct PricingHeader: View {
    let plan: String
    let monthly: Decimal

    var body: some View {
        VStack(spacing: 4) {
            Text(plan.uppercased())
                .font(.caption)
                .tracking(2)
                .foregroundStyle(.secondary)
            Text(monthly, format: .currency(code: "USD"))
                .font(.system(size: 44, design: .rounded))
                .fontWeight(.extraBold)
            Text("per month")
                .font(.footnote)
        }
    }
}
