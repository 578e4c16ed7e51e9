import Foundation

struct Comment: Decodable, Identifiable {
    let id: Int
    let body: String
    let postedAt: Date
}

enum CommentAPI {
    static func decode(_ data: Data) throws -> [Comment] {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601WithFractionalSeconds
        return try decoder.decode([Comment].self, from: data)
    }
}
