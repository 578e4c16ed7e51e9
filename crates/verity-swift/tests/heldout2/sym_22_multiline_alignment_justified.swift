import SwiftUI

struct ArticleBodyView: View {
    let title: String
    let paragraphs: [String]

    var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: 16) {
                Text(title)
                    .font(.largeTitle.bold())
                ForEach(paragraphs, id: \.self) { paragraph in
                    Text(paragraph)
                        .multilineTextAlignment(.justified)
                        .lineSpacing(4)
                }
            }
            .padding(.horizontal)
        }
    }
}
