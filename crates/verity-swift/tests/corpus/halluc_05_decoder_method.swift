import Foundation

struct Config: Decodable { let name: String }

func parse(_ data: Data) throws -> Config {
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    return try decoder.decodeJSON(Config.self, from: data)
}
