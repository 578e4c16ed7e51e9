import Foundation

struct Flight: Decodable {
    let number: String
    let departure: Date
    let gate: String?

    private enum RootKeys: String, CodingKey {
        case number = "flight_number"
        case schedule
    }

    private enum ScheduleKeys: String, CodingKey {
        case departure, gate
    }

    init(from decoder: Decoder) throws {
        let root = try decoder.container(keyedBy: RootKeys.self)
        number = try root.decode(String.self, forKey: .number)
        let schedule = try root.nestedContainer(keyedBy: ScheduleKeys.self, forKey: .schedule)
        departure = try schedule.decode(Date.self, forKey: .departure)
        gate = try schedule.decodeIfPresent(String.self, forKey: .gate)
    }
}

func decodeFlights(_ data: Data) throws -> [Flight] {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .formatted(formatter)
    return try decoder.decode([Flight].self, from: data)
}
