import Foundation

func makeURL() -> URL? {
    let base = URL(urlString: "https://example.com")
    return base
}
