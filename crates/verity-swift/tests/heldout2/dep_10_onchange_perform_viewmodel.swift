import SwiftUI

@MainActor
final class SearchViewModel: ObservableObject {
    @Published var results: [String] = []

    func search(_ text: String) async {
        try? await Task.sleep(for: .milliseconds(250))
        results = text.isEmpty ? [] : ["\(text) 1", "\(text) 2"]
    }
}

struct SearchScreen: View {
    @StateObject private var model = SearchViewModel()
    @State private var query = ""

    var body: some View {
        List(model.results, id: \.self) { Text($0) }
            .searchable(text: $query)
            .onChange(of: query) { newValue in
                Task { await model.search(newValue) }
            }
    }
}
