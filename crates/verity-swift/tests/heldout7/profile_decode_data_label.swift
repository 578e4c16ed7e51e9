import Foundation

struct UserProfile: Decodable {
    let id: Int
    let name: String
    let email: String
}

actor ProfileService {
    private var cache: [Int: UserProfile] = [:]

    func profile(id: Int) async throws -> UserProfile {
        if let cached = cache[id] { return cached }
        let url = URL(string: "https://example.com/api/users/\(id)")!
        let (data, _) = try await URLSession.shared.data(from: url)
        let profile = try JSONDecoder().decode(UserProfile.self, data: data)
        cache[id] = profile
        return profile
    }
}
