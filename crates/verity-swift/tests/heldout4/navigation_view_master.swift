import SwiftUI

struct Contact: Identifiable, Hashable {
    let id = UUID()
    var name: String
    var phone: String
}

struct ContactsView: View {
    let contacts: [Contact]

    var body: some View {
        NavigationView {
            List(contacts) { contact in
                NavigationLink(value: contact) {
                    VStack(alignment: .leading) {
                        Text(contact.name)
                        Text(contact.phone).font(.caption)
                    }
                }
            }
            .navigationTitle("Contacts")
        }
    }
}
