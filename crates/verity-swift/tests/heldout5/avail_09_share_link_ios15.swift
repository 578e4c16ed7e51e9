import SwiftUI

struct ArticleFooter: View {
    let title: String
    let link: URL
    @State private var saved = false

    var body: some View {
        HStack(spacing: 20) {
            Button {
                saved.toggle()
            } label: {
                Label(saved ? "Saved" : "Save", systemImage: saved ? "bookmark.fill" : "bookmark")
            }
            ShareLink(item: link, subject: Text(title)) {
                Label("Share", systemImage: "square.and.arrow.up")
            }
        }
        .labelStyle(.iconOnly)
        .font(.title3)
    }
}
