import Foundation

struct Profile: Decodable {
    let handle: String
    let bio: String
    let followers: Int

    enum CodingKeys: String, CodingKey {
        case handle, bio, followers
    }

    init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        handle = try values.decode(String.self, forKey: .handle)
        bio = try values.decode(String.self, forKey: .bio, default: "")
        followers = try values.decodeIfPresent(Int.self, forKey: .followers) ?? 0
    }
}
