import SwiftUI

struct ProfileHeader: View {
    let name: String
    let avatarURL: URL?

    var body: some View {
        HStack(spacing: 16) {
            AsyncImage(url: avatarURL) { image in
                image.resizable().scaledToFill()
            } placeholder: {
                ProgressView()
            }
            .frame(width: 72, height: 72)
            .cornerRadius(16)
            VStack(alignment: .leading) {
                Text(name).font(.title2.bold())
                Text("Member since 2021").font(.subheadline).foregroundStyle(.secondary)
            }
            Spacer()
        }
        .padding()
    }
}
