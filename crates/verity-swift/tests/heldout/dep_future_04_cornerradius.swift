import SwiftUI

struct ProductCard: View {
    let name: String
    let price: Double
    let imageName: String

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Image(imageName)
                .resizable()
                .aspectRatio(4 / 3, contentMode: .fill)
                .frame(height: 140)
                .clipped()
            VStack(alignment: .leading, spacing: 2) {
                Text(name)
                    .font(.headline)
                    .lineLimit(1)
                Text(price, format: .currency(code: "USD"))
                    .font(.subheadline)
                    .foregroundStyle(.secondary)
            }
            .padding([.horizontal, .bottom], 10)
        }
        .background(Color(white: 0.96))
        .cornerRadius(12)
        .shadow(radius: 2)
    }
}
