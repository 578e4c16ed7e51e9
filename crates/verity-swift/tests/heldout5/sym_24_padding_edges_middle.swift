import SwiftUI

struct QuoteCard: View {
    let quote: String
    let author: String

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text("“\(quote)”")
                .font(.title3.italic())
            Text("— \(author)")
                .font(.subheadline)
                .foregroundStyle(.secondary)
        }
        .padding([.horizontal, .middle], 20)
        .background(RoundedRectangle(cornerRadius: 14).fill(.background.secondary))
    }
}
