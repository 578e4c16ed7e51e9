import Foundation

struct Profile: Decodable { let name: String }
struct Post: Decodable { let title: String }

struct FeedLoader {
    let session: URLSession = .shared

    func load(userID: Int) async throws -> (Profile, [Post]) {
        async let profile = fetch(Profile.self, path: "users/\(userID)")
        async let posts = fetch([Post].self, path: "users/\(userID)/posts")
        return try await (profile, posts)
    }

    func loadAll(ids: [Int]) async throws -> [Profile] {
        try await withThrowingTaskGroup(of: Profile.self) { group in
            for id in ids {
                group.addTask { try await fetch(Profile.self, path: "users/\(id)") }
            }
            var profiles: [Profile] = []
            for try await profile in group {
                profiles.append(profile)
                if profiles.count == 50 {
                    group.cancelAll()
                    break
                }
            }
            return profiles
        }
    }

    private func fetch<T: Decodable>(_ type: T.Type, path: String) async throws -> T {
        let url = URL(string: "https://api.example.com/")!.appending(path: path)
        let (data, _) = try await session.data(from: url)
        return try JSONDecoder().decode(T.self, from: data)
    }
}
