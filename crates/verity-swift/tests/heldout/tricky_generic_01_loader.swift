import Foundation

protocol Endpoint {
    associatedtype Response: Decodable
    var path: String { get }
    var query: [URLQueryItem] { get }
}

struct SearchUsers: Endpoint {
    typealias Response = [User]
    let term: String
    var path: String { "/search/users" }
    var query: [URLQueryItem] { [URLQueryItem(name: "q", value: term)] }
}

struct User: Decodable, Identifiable {
    let id: Int
    let login: String
}

struct Client {
    var base = URL(string: "https://api.example.com")!
    var session = URLSession.shared

    func send<E: Endpoint>(_ endpoint: E) async throws -> E.Response {
        var components = URLComponents(url: base.appending(path: endpoint.path), resolvingAgainstBaseURL: false)!
        components.queryItems = endpoint.query.isEmpty ? nil : endpoint.query
        let (data, _) = try await session.data(from: components.url!)
        return try JSONDecoder().decode(E.Response.self, from: data)
    }

    func first<E: Endpoint>(_ endpoint: E) async throws -> E.Response.Element? where E.Response: Collection {
        try await send(endpoint).first
    }
}

func demo() async throws {
    let client = Client()
    let users = try await client.send(SearchUsers(term: "swift"))
    let top = try await client.first(SearchUsers(term: "swiftui"))
    print(users.map(\.login), top?.login ?? "none")
}
