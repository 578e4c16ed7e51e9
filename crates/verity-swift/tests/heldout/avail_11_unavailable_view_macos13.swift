import SwiftUI

struct LibrarySidebar: View {
    @State private var albums: [String] = []
    @State private var selection: String?

    var body: some View {
        NavigationSplitView {
            List(albums, id: \.self, selection: $selection) { album in
                Text(album)
            }
            .navigationTitle("Albums")
        } detail: {
            if let selection {
                Text(selection)
                    .font(.largeTitle)
            } else {
                ContentUnavailableView("No Album Selected", systemImage: "photo.on.rectangle")
            }
        }
    }
}
