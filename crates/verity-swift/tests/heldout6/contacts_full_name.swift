import Contacts

struct ContactImporter {
    func names() throws -> [String] {
        let store = CNContactStore()
        let keys = [CNContactGivenNameKey, CNContactFamilyNameKey, CNContactPhoneNumbersKey] as [CNKeyDescriptor]
        let request = CNContactFetchRequest(keysToFetch: keys)
        request.sortOrder = .familyName
        var result: [String] = []
        try store.enumerateContacts(with: request) { contact, _ in
            result.append(contact.fullName)
        }
        return result
    }
}
