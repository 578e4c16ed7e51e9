import Foundation

struct UserProfile: Codable {
    var firstName: String
    var lastName: String
    var createdAt: Date
}

func encodeProfile(_ profile: UserProfile) throws -> Data {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToCamelCase
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(profile)
}
