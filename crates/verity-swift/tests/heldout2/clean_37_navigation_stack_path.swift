import SwiftUI

struct Album: Hashable, Identifiable {
    let id: Int
    let title: String
}

struct AlbumsRoot: View {
    @State private var path = NavigationPath()
    let albums = [Album(id: 1, title: "Blue"), Album(id: 2, title: "Red")]

    var body: some View {
        NavigationStack(path: $path) {
            List(albums) { album in
                NavigationLink(value: album) {
                    Text(album.title)
                }
            }
            .navigationDestination(for: Album.self) { album in
                VStack {
                    Text(album.title).font(.largeTitle)
                    Button("Back to root") { path.removeLast(path.count) }
                }
            }
            .toolbar {
                Button("Open first") { path.append(albums[0]) }
            }
        }
    }
}
