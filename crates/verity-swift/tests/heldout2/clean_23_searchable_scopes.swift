import SwiftUI

enum Scope: String, CaseIterable {
    case songs, albums
}

struct MusicSearch: View {
    @State private var text = ""
    @State private var scope: Scope = .songs
    let recent = ["Jazz", "Lo-fi", "Piano"]

    var body: some View {
        NavigationStack {
            List {
                Text("Results for \(text) in \(scope.rawValue)")
            }
            .searchable(text: $text, placement: .navigationBarDrawer(displayMode: .always), prompt: "Artists, songs")
            .searchScopes($scope) {
                ForEach(Scope.allCases, id: \.self) { scope in
                    Text(scope.rawValue.capitalized).tag(scope)
                }
            }
            .searchSuggestions {
                ForEach(recent, id: \.self) { term in
                    Text(term).searchCompletion(term)
                }
            }
            .navigationTitle("Search")
        }
    }
}
