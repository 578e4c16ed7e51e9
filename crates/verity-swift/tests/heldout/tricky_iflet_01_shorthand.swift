import SwiftUI

struct Profile {
    var name: String
    var email: String?
    var avatarURL: URL?
    var bio: String?
}

struct ProfileHeader: View {
    let profile: Profile?

    var body: some View {
        if let profile {
            VStack(spacing: 8) {
                if let avatarURL = profile.avatarURL {
                    AsyncImage(url: avatarURL) { image in
                        image.resizable().scaledToFill()
                    } placeholder: {
                        ProgressView()
                    }
                    .frame(width: 80, height: 80)
                    .clipShape(Circle())
                }
                Text(profile.name)
                    .font(.title2.bold())
                if let email = profile.email {
                    Text(email)
                        .foregroundStyle(.secondary)
                }
                if let bio = profile.bio, !bio.isEmpty {
                    Text(bio)
                        .multilineTextAlignment(.center)
                }
            }
        } else {
            ProgressView("Loading profile…")
        }
    }
}

func greeting(for profile: Profile?) -> String {
    guard let profile else { return "Hello!" }
    return "Hello, \(profile.name)!"
}
