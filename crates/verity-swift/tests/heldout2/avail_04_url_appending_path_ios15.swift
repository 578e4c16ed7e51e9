import Foundation

struct CacheLocation {
    let root: URL

    init() throws {
        root = try FileManager.default.url(
            for: .cachesDirectory,
            in: .userDomainMask,
            appropriateFor: nil,
            create: true
        )
    }

    func fileURL(for key: String) -> URL {
        root.appending(path: key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key)
    }
}
