import Contacts

struct ContactCard {
    let name: String
    let email: String?
}

enum ContactLookup {
    static func cards(matching name: String) throws -> [ContactCard] {
        let store = CNContactStore()
        let keys: [CNKeyDescriptor] = [
            CNContactFormatter.descriptorForRequiredKeys(for: .fullName),
            CNContactEmailAddressesKey as CNKeyDescriptor,
        ]
        let contacts = try store.unifiedContacts(matching: CNContact.predicateForContacts(matchingName: name),
                                                 keysToFetch: keys)
        return contacts.map { contact in
            ContactCard(name: CNContactFormatter.string(from: contact, style: .fullName) ?? "Unknown",
                        email: contact.emailAddresses.first.map { String($0.value) })
        }
    }
}
