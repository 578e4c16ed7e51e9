import SwiftUI

struct DocumentBrowser: View {
    @State private var documents = ["Draft", "Notes", "Ideas"]

    var body: some View {
        NavigationStack {
            List(documents, id: \.self) { name in
                NavigationLink(name, value: name)
            }
            .navigationDestination(for: String.self) { name in
                Text(name)
            }
            .toolbarRole(.navigation)
            .navigationTitle("Documents")
        }
    }
}
