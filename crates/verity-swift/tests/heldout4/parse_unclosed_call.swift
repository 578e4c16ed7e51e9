import Foundation

struct Item: Decodable {
    let id: Int
}

func fetchItems(from url: URL, limit: Int) async throws -> [Item] {
    let (data, _) = try await URLSession.shared.data(from: url)
    return Array(try JSONDecoder().decode([Item].self, from: data).prefix(limit))
}

func loadFirstPage() async throws -> [Item] {
    let url = URL(string: "https://example.com/items")!
    let items = try await fetchItems(from: url,
    return items
}
