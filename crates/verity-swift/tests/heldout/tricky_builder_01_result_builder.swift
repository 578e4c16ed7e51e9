import Foundation

@resultBuilder
enum QueryBuilder {
    static func buildBlock(_ parts: [URLQueryItem]...) -> [URLQueryItem] {
        parts.flatMap { $0 }
    }

    static func buildExpression(_ item: URLQueryItem) -> [URLQueryItem] {
        [item]
    }

    static func buildOptional(_ items: [URLQueryItem]?) -> [URLQueryItem] {
        items ?? []
    }

    static func buildEither(first items: [URLQueryItem]) -> [URLQueryItem] {
        items
    }

    static func buildEither(second items: [URLQueryItem]) -> [URLQueryItem] {
        items
    }

    static func buildArray(_ items: [[URLQueryItem]]) -> [URLQueryItem] {
        items.flatMap { $0 }
    }
}

func makeURL(_ base: String, @QueryBuilder query: () -> [URLQueryItem]) -> URL? {
    var components = URLComponents(string: base)
    components?.queryItems = query()
    return components?.url
}

let tags = ["swift", "ios"]
let page: Int? = 2
let url = makeURL("https://example.com/search") {
    URLQueryItem(name: "sort", value: "recent")
    if let page {
        URLQueryItem(name: "page", value: String(page))
    }
    for tag in tags {
        URLQueryItem(name: "tag", value: tag)
    }
}
print(url?.absoluteString ?? "invalid")
