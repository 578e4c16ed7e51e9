import Foundation

struct User: Codable, Equatable {
    var name: String
    var email: String
    var joined: Date

    enum CodingKeys: String, CodingKey {
        case name
        case email = "email_address"
        case joined
    }
}

func roundTrip(_ user: User) throws -> User {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .secondsSince1970
    let data = try encoder.encode(user)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let text = String(decoding: data, as: UTF8.self)
    print(text.count, data.count)
    return try decoder.decode(User.self, from: data)
}
