import SwiftUI

struct SearchResultsView: View {
    let query: String
    let results: [String]

    var body: some View {
        if results.isEmpty {
            if #available(iOS 17.0, *) {
                ContentUnavailableView.search(text: query)
            } else {
                VStack(spacing: 8) {
                    Image(systemName: "magnifyingglass")
                        .font(.largeTitle)
                    Text("No results for “\(query)”")
                        .font(.headline)
                }
                .foregroundStyle(.secondary)
            }
        } else {
            List(results, id: \.self) { result in
                Text(result)
            }
        }
    }
}
