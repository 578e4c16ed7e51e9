import Foundation

struct Todo: Decodable { let id: Int; let title: String }

func load() async throws -> [Todo] {
    let url = URL(string: "https://example.com/todos")!
    return try await URLSession.shared.fetchJSON([Todo].self, from: url)
}
