import Foundation

struct Episode: Decodable {
    let id: Int
    let title: String
    let summary: String?
    let airDate: Date?

    enum CodingKeys: String, CodingKey {
        case id, title, summary
        case airDate = "air_date"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        summary = try container.decodeOptional(String.self, forKey: .summary)
        airDate = try container.decodeIfPresent(Date.self, forKey: .airDate)
    }
}
