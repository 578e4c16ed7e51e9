import SwiftUI

struct ProfileAvatar: View {
    let url: URL

    var body: some View {
        AsyncImage(url: url) { phase in
            switch phase {
            case .loading:
                ProgressView()
            case .success(let image):
                image.resizable().scaledToFit()
            case .failure:
                Image(systemName: "person.crop.circle.badge.exclamationmark")
            default:
                Color.gray
            }
        }
        .frame(width: 64, height: 64)
        .clipShape(Circle())
    }
}
