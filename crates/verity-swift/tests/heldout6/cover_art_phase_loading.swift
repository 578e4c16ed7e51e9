import SwiftUI

struct PodcastArtwork: View {
    let artworkURL: URL

    var body: some View {
        AsyncImage(url: artworkURL) { phase in
            switch phase {
            case .loading:
                ProgressView()
            case .success(let image):
                image.resizable().scaledToFit()
            case .failure:
                Color.gray.opacity(0.3)
            @unknown default:
                Color.clear
            }
        }
        .frame(width: 120, height: 120)
    }
}
