import SwiftUI
import Observation

@Observable
final class Contact {
    var name = ""
    var email = ""
    var favorite = false
}

struct ContactEditor: View {
    @Bindable var contact: Contact

    var body: some View {
        Form {
            TextField("Name", text: $contact.name)
                .textContentType(.name)
            TextField("Email", text: $contact.email)
                .keyboardType(.emailAddress)
                .textInputAutocapitalization(.never)
            Toggle("Favorite", isOn: $contact.favorite)
        }
    }
}
