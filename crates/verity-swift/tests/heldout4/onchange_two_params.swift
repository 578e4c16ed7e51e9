import SwiftUI

struct CitySearchView: View {
    @State private var query = ""
    @State private var history: [String] = []
    let cities: [String]

    var filtered: [String] {
        query.isEmpty ? cities : cities.filter { $0.localizedCaseInsensitiveContains(query) }
    }

    var body: some View {
        NavigationStack {
            List(filtered, id: \.self) { city in
                Text(city)
            }
            .searchable(text: $query, prompt: "Search cities")
            .onChange(of: query) { oldValue, newValue in
                let trimmed = newValue.trimmingCharacters(in: .whitespaces)
                if trimmed.count > oldValue.count, trimmed.count >= 3 {
                    history.append(trimmed)
                }
            }
            .navigationTitle("Cities")
        }
    }
}
