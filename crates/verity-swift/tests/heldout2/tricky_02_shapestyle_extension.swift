import SwiftUI

extension ShapeStyle where Self == Color {
    static var brand: Color { Color(red: 0.2, green: 0.4, blue: 0.9) }
    static var brandSecondary: Color { Color(red: 0.6, green: 0.7, blue: 1.0) }
}

struct BrandedHeader: View {
    var body: some View {
        HStack {
            Image(systemName: "sparkles")
                .foregroundStyle(.brand)
            Text("Welcome back")
                .font(.headline)
                .foregroundStyle(.brandSecondary)
            Spacer()
            Button("Start") {}
                .tint(.brand)
                .buttonStyle(.borderedProminent)
        }
        .padding()
    }
}
