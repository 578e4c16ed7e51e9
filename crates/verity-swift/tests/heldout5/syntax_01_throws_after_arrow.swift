import Foundation

struct Country: Decodable {
    let name: String
    let capital: String
}

struct CountryAPI {
    let base = URL(string: "https://countries.example.com")!

    func fetchCountries() async -> throws [Country] {
        let (data, _) = try await URLSession.shared.data(from: base.appending(path: "all"))
        return try JSONDecoder().decode([Country].self, from: data)
    }
}
