import SwiftUI

extension Color {
    static let brand = Color(red: 0.35, green: 0.2, blue: 0.85)
    static let brandBackground = Color(red: 0.95, green: 0.93, blue: 1.0)
}

extension ShapeStyle where Self == Color {
    static var warning: Color { Color(red: 0.95, green: 0.6, blue: 0.1) }
}

struct PlanCard: View {
    let plan: String
    let price: String
    var highlighted = false

    var body: some View {
        VStack(spacing: 8) {
            Text(plan)
                .font(.headline)
                .foregroundStyle(Color.brand)
            Text(price)
                .font(.largeTitle.bold())
            if highlighted {
                Text("Best value")
                    .font(.caption.bold())
                    .foregroundStyle(.warning)
            }
        }
        .padding(24)
        .background(Color.brandBackground, in: RoundedRectangle(cornerRadius: 20))
        .overlay {
            RoundedRectangle(cornerRadius: 20)
                .strokeBorder(highlighted ? Color.brand : .clear, lineWidth: 2)
        }
        .tint(.brand)
    }
}
