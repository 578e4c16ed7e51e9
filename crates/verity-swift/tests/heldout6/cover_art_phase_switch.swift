import SwiftUI

struct AlbumCover: View {
    let url: URL?

    var body: some View {
        AsyncImage(url: url, transaction: Transaction(animation: .easeInOut)) { phase in
            switch phase {
            case .empty:
                ProgressView()
            case .success(let image):
                image
                    .resizable()
                    .interpolation(.high)
                    .aspectRatio(contentMode: .fill)
                    .transition(.opacity)
            case .failure(let error):
                Image(systemName: "music.note")
                    .help(error.localizedDescription)
            @unknown default:
                EmptyView()
            }
        }
        .frame(width: 160, height: 160)
        .clipShape(RoundedRectangle(cornerRadius: 12, style: .continuous))
    }
}
