import Foundation

struct CacheDirectory {
    let root: URL

    init() throws {
        let caches = try FileManager.default.url(
            for: .cachesDirectory,
            in: .userDomainMask,
            appropriateFor: nil,
            create: true
        )
        root = caches.appendingPathComponent("ImageCache", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func file(for key: String) -> URL {
        let safe = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key
        return root.appending(path: safe)
    }

    func store(_ data: Data, for key: String) throws {
        try data.write(to: file(for: key), options: .atomic)
    }

    func load(_ key: String) -> Data? {
        try? Data(contentsOf: file(for: key))
    }
}
