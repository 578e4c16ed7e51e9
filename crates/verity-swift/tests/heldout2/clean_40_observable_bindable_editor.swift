import SwiftUI
import Observation

@Observable
final class Profile {
    var name = ""
    var bio = ""
    var notificationsOn = true
}

struct ProfileEditor: View {
    @Bindable var profile: Profile

    var body: some View {
        Form {
            TextField("Name", text: $profile.name)
            TextField("Bio", text: $profile.bio, axis: .vertical)
                .lineLimit(3...6)
            Toggle("Notifications", isOn: $profile.notificationsOn)
        }
    }
}

struct ProfileScreen: View {
    @Environment(Profile.self) private var profile

    var body: some View {
        NavigationStack {
            ProfileEditor(profile: profile)
                .navigationTitle(profile.name.isEmpty ? "Profile" : profile.name)
        }
    }
}
