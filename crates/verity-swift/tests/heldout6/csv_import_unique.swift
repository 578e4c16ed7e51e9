import Foundation

struct Subscriber {
    let email: String
    let joined: Date
}

enum SubscriberImporter {
    static func parse(csv: String) -> [Subscriber] {
        let rows = csv.split(separator: "\n").dropFirst()
        let emails = rows
            .compactMap { $0.split(separator: ",").first }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { $0.contains("@") }
            .unique()
        return emails.map { Subscriber(email: $0, joined: .now) }
    }
}
