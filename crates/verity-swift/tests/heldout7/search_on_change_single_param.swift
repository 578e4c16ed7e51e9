import SwiftUI

struct CitySearchView: View {
    @State private var searchText = ""
    @State private var matches: [String] = []
    let cities: [String]

    var body: some View {
        NavigationStack {
            List(matches, id: \.self) { city in
                Text(city)
            }
            .searchable(text: $searchText, prompt: "City")
            .onChange(of: searchText) { newValue in
                matches = cities.filter { $0.localizedCaseInsensitiveContains(newValue) }
            }
            .navigationTitle("Cities")
        }
    }
}
