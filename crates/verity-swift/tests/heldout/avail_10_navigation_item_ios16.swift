import SwiftUI

struct Contact: Identifiable, Hashable {
    let id = UUID()
    let name: String
    let phone: String
}

struct ContactsScreen: View {
    let contacts: [Contact]
    @State private var selected: Contact?

    var body: some View {
        NavigationStack {
            List(contacts) { contact in
                Button(contact.name) { selected = contact }
            }
            .navigationTitle("Contacts")
            .navigationDestination(item: $selected) { contact in
                VStack {
                    Text(contact.name).font(.title)
                    Text(contact.phone)
                }
            }
        }
    }
}
