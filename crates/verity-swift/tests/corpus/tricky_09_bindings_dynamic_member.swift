import SwiftUI

struct Profile {
    var name: String
    var age: Int
}

struct ProfileEditor: View {
    @Binding var profile: Profile
    @State private var draft = Profile(name: "", age: 0)

    var body: some View {
        Form {
            TextField("Name", text: $profile.name)
            Stepper("Age \(profile.age)", value: $profile.age, in: 0...120)
            TextField("Draft", text: $draft.name)
        }
    }
}
