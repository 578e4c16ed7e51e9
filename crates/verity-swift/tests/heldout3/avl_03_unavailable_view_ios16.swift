import SwiftUI

struct SearchResults: View {
    let query: String
    let hits: [String]

    var body: some View {
        if hits.isEmpty {
            ContentUnavailableView.search(text: query)
        } else {
            List(hits, id: \.self) { Text($0) }
        }
    }
}
