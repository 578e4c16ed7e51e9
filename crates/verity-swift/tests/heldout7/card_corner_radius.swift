import SwiftUI

struct RecipeCard: View {
    let title: String
    let minutes: Int
    let imageName: String

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Image(imageName)
                .resizable()
                .aspectRatio(4 / 3, contentMode: .fill)
                .frame(height: 140)
                .clipped()
            Text(title).font(.headline)
            Label("\(minutes) min", systemImage: "clock")
                .font(.caption)
                .foregroundStyle(.secondary)
        }
        .padding(12)
        .background(Color(.secondarySystemBackground))
        .cornerRadius(16)
        .shadow(radius: 2, y: 1)
    }
}
