import Foundation

enum Endpoint {
    case search(term: String, page: Int)
    case item(id: String)

    var url: URL? {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "api.example.com"
        switch self {
        case let .search(term, page):
            components.path = "/search"
            components.queryItems = [
                URLQueryItem(name: "q", value: term),
                URLQueryItem(name: "page", value: String(page)),
            ]
        case let .item(id):
            components.path = "/items/\(id)"
        }
        return components.url
    }
}
