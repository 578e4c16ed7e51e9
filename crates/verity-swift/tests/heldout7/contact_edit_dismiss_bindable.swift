import SwiftUI
import Observation

@Observable
final class EditableContact {
    var name: String
    var email: String

    init(name: String, email: String) {
        self.name = name
        self.email = email
    }
}

struct ContactEditView: View {
    @Bindable var contact: EditableContact
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            Form {
                TextField("Name", text: $contact.name)
                TextField("Email", text: $contact.email)
                    .keyboardType(.emailAddress)
                    .textInputAutocapitalization(.never)
            }
            .toolbar {
                ToolbarItem(placement: .confirmationAction) {
                    Button("Done") { dismiss() }
                }
            }
        }
    }
}
