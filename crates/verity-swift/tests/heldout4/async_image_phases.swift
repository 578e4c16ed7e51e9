import SwiftUI

struct RemotePoster: View {
    let url: URL?

    var body: some View {
        AsyncImage(url: url, transaction: Transaction(animation: .easeIn)) { phase in
            switch phase {
            case .empty:
                ProgressView()
            case .success(let image):
                image
                    .resizable()
                    .scaledToFill()
            case .failure(let error):
                VStack {
                    Image(systemName: "photo")
                    Text(error.localizedDescription).font(.caption2)
                }
            @unknown default:
                EmptyView()
            }
        }
        .frame(width: 120, height: 180)
        .clipShape(RoundedRectangle(cornerRadius: 10))
    }
}
