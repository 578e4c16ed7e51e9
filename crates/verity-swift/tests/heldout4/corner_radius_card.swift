import SwiftUI

struct ArticleCard: View {
    let title: String
    let summary: String
    let imageName: String

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Image(imageName)
                .resizable()
                .scaledToFill()
                .frame(height: 160)
                .clipped()
            Text(title)
                .font(.title3.bold())
            Text(summary)
                .font(.body)
                .lineLimit(3)
        }
        .padding()
        .background(.regularMaterial)
        .cornerRadius(16)
        .shadow(radius: 4)
    }
}
