import SwiftUI

struct PhotoLibraryView: View {
    @State private var showDetails = true
    let photos: [String]

    var body: some View {
        NavigationStack {
            List(photos, id: \.self) { Text($0) }
                .inspector(isPresented: $showDetails) {
                    Text("Details")
                }
                .navigationTitle("Library")
        }
    }
}
