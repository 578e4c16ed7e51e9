import Foundation

struct Post: Decodable, Identifiable {
    let id: Int
    let title: String
    let body: String
}

@MainActor
final class PostsViewModel: ObservableObject {
    @Published var posts: [Post] = []
    @Published var errorMessage: String?

    func load() async {
        do {
            let url = URL(string: "https://jsonplaceholder.typicode.com/posts")!
            let (data, _) = try await URLSession.shared.data(from: url)
            posts = try JSONDecoder().decode([Post].self, data: data)
        } catch {
            errorMessage = error.localizedDescription
        }
    }
}
