import SwiftUI

struct PlanRow: View {
    let plan: String
    let price: String
    let featured: Bool

    var body: some View {
        let headline = featured ? "\(plan) ★" : plan
        let caption = price + " / month"
        let largeTitle = featured
        VStack(alignment: .leading, spacing: 2) {
            Text(headline)
                .font(largeTitle ? .title2.weight(.semibold) : .headline)
            Text(caption)
                .font(.caption)
                .foregroundStyle(.secondary)
        }
    }
}
