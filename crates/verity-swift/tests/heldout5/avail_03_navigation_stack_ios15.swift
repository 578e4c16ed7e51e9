import SwiftUI

struct Episode: Identifiable, Hashable {
    let id: Int
    let title: String
}

struct EpisodeList: View {
    let episodes: [Episode]

    var body: some View {
        NavigationStack {
            List(episodes) { episode in
                NavigationLink(episode.title) {
                    Text(episode.title).font(.title)
                }
            }
            .navigationTitle("Episodes")
            .refreshable { }
        }
    }
}
