import SwiftUI

struct BannerImage: View {
    let url: URL

    var body: some View {
        AsyncImage(url: url) { phase in
            switch phase {
            case .loading:
                ProgressView()
            case .success(let image):
                image.resizable().scaledToFill()
            case .failure(let error):
                Text(error.localizedDescription).font(.caption)
            default:
                Color.gray.opacity(0.2)
            }
        }
        .frame(height: 180)
        .clipped()
    }
}
