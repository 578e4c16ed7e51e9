import Foundation

protocol Repository {
    associatedtype Item: Codable & Identifiable
    func fetchAll() async throws -> [Item]
    func save(_ item: Item) async throws
}

struct Recipe: Codable, Identifiable {
    let id: UUID
    var name: String
}

actor RemoteRecipeRepository: Repository {
    private let base = URL(string: "https://api.example.com/recipes")!
    private var cache: [UUID: Recipe] = [:]

    func fetchAll() async throws -> [Recipe] {
        let (data, _) = try await URLSession.shared.data(from: base)
        let recipes = try JSONDecoder().decode([Recipe].self, from: data)
        for recipe in recipes { cache[recipe.id] = recipe }
        return recipes
    }

    func save(_ item: Recipe) async throws {
        var request = URLRequest(url: base.appending(path: item.id.uuidString))
        request.httpMethod = "PUT"
        request.httpBody = try JSONEncoder().encode(item)
        _ = try await URLSession.shared.data(for: request)
        cache[item.id] = item
    }
}

func loadRecipes<R: Repository>(from repository: R) async -> [R.Item] {
    (try? await repository.fetchAll()) ?? []
}
