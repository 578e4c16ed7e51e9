import Foundation

struct Forecast: Codable {
    let city: String
    let temperature: Double
    let updated: Date

    enum CodingKeys: String, CodingKey {
        case city, main, updated = "dt"
    }

    enum MainKeys: String, CodingKey {
        case temperature = "temp"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        city = try container.decode(String.self, forKey: .city)
        updated = try container.decode(Date.self, forKey: .updated)
        let main = try container.nestedContainer(keyedBy: MainKeys.self, forKey: .main)
        temperature = try main.decodeIfPresent(Double.self, forKey: .temperature) ?? .nan
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(city, forKey: .city)
        try container.encode(updated, forKey: .updated)
        var main = container.nestedContainer(keyedBy: MainKeys.self, forKey: .main)
        try main.encode(temperature, forKey: .temperature)
    }
}

func decodeForecast(_ data: Data) throws -> Forecast {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return try decoder.decode(Forecast.self, from: data)
}
