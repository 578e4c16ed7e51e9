import SwiftUI

@Observable
final class SearchModel {
    var query = ""
    var results: [String] = []

    func search(_ text: String) async {
        try? await Task.sleep(for: .milliseconds(300))
        guard !Task.isCancelled else { return }
        results = ["Apple", "Apricot", "Avocado"].filter { $0.localizedCaseInsensitiveContains(text) }
    }
}

struct SearchScreen: View {
    @State private var model = SearchModel()
    @State private var lastQuery = ""

    var body: some View {
        NavigationStack {
            List(model.results, id: \.self) { Text($0) }
                .searchable(text: $model.query)
                .onChange(of: model.query) { oldValue, newValue in
                    lastQuery = oldValue
                }
                .task(id: model.query) {
                    await model.search(model.query)
                }
                .navigationTitle("Fruit")
        }
    }
}
