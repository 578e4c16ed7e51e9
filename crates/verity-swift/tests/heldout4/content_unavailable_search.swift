import SwiftUI

struct LibrarySearch: View {
    @State private var text = ""
    let titles: [String]

    private var results: [String] {
        titles.filter { $0.localizedStandardContains(text) }
    }

    var body: some View {
        NavigationStack {
            List(results, id: \.self) { Text($0) }
                .overlay {
                    if !text.isEmpty && results.isEmpty {
                        ContentUnavailableView.search(text: text)
                    }
                }
                .searchable(text: $text)
        }
    }
}
