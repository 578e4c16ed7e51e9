import Contacts

struct ContactSummary: Identifiable {
    let id: String
    let name: String
    let phone: String?
}

final class ContactsImporter {
    private let store = CNContactStore()

    func importAll() async throws -> [ContactSummary] {
        guard try await store.requestAccess(for: .contacts) else { return [] }
        let keys: [CNKeyDescriptor] = [
            CNContactGivenNameKey as CNKeyDescriptor,
            CNContactFamilyNameKey as CNKeyDescriptor,
            CNContactPhoneNumbersKey as CNKeyDescriptor,
        ]
        let request = CNContactFetchRequest(keysToFetch: keys)
        var result: [ContactSummary] = []
        try store.enumerateContacts(with: request) { contact, _ in
            result.append(ContactSummary(id: contact.identifier,
                                         name: contact.fullName,
                                         phone: contact.phoneNumbers.first?.value.stringValue))
        }
        return result
    }
}
