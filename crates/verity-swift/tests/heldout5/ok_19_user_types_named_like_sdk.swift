import SwiftUI

struct Theme {
    var foregroundColor: Color
    var cornerRadius: CGFloat
    var navigationBarTitle: String

    static let ocean = Theme(foregroundColor: .teal, cornerRadius: 10, navigationBarTitle: "Ocean")
}

final class ArticleStore {
    private(set) var articles: [String] = []

    func fetchAll() -> [String] { articles }
    func add(_ article: String) { articles.append(article) }
    func keyWindow() -> String? { articles.last }
}

struct ThemedTitle: View {
    let theme: Theme
    let store: ArticleStore

    var body: some View {
        VStack {
            Text(theme.navigationBarTitle)
                .foregroundStyle(theme.foregroundColor)
            Text("\(store.fetchAll().count) articles, latest \(store.keyWindow() ?? "none")")
        }
        .padding()
        .background(theme.foregroundColor.opacity(0.1), in: .rect(cornerRadius: theme.cornerRadius))
    }
}
