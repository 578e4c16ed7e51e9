import Foundation

struct ContactImporter {
    func normalizedEmails(from raw: [String]) -> [String] {
        raw
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
            .filter { $0.contains("@") }
            .unique()
            .sorted()
    }

    func domains(from emails: [String]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for email in emails {
            guard let domain = email.split(separator: "@").last else { continue }
            counts[String(domain), default: 0] += 1
        }
        return counts
    }
}
