import SwiftUI

struct EmptyResultsView: View {
    let query: String
    @State private var bounces = 0

    var body: some View {
        if #available(iOS 17.0, *) {
            ContentUnavailableView.search(text: query)
                .onTapGesture { bounces += 1 }
                .symbolEffect(.bounce, value: bounces)
        } else {
            VStack(spacing: 8) {
                Image(systemName: "magnifyingglass")
                    .font(.largeTitle)
                Text("No results for \(query)")
            }
            .foregroundStyle(.secondary)
        }
    }
}
