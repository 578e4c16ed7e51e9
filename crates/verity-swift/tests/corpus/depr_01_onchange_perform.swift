import SwiftUI

struct SearchField: View {
    @State private var query = ""
    var body: some View {
        TextField("Search", text: $query)
            .onChange(of: query) { newValue in
                print("query is now \(newValue)")
            }
    }
}
