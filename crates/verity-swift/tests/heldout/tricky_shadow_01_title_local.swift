import SwiftUI

struct ArticleHeader: View {
    let article: (title: String, subtitle: String, readingMinutes: Int)

    var body: some View {
        let title = article.title
        let subtitle = article.subtitle
        let caption = "\(article.readingMinutes) min read"

        VStack(alignment: .leading, spacing: 6) {
            Text(title)
                .font(.title.bold())
            Text(subtitle)
                .font(.title3)
                .foregroundStyle(.secondary)
            Text(caption)
                .font(.caption)
                .textCase(.uppercase)
                .foregroundStyle(.tertiary)
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .padding()
    }
}

#Preview {
    ArticleHeader(article: (title: "Swift Concurrency", subtitle: "A field guide", readingMinutes: 12))
}
