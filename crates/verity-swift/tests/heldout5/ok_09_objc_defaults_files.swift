import Foundation

struct CacheDirectory {
    let root: URL

    init() throws {
        let caches = try FileManager.default.url(for: .cachesDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        root = caches.appending(path: "Downloads", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func files() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: [.fileSizeKey])
    }

    func totalSize() throws -> Int {
        try files().reduce(0) { sum, url in
            let values = try url.resourceValues(forKeys: [.fileSizeKey])
            return sum + (values.fileSize ?? 0)
        }
    }

    func purge() throws {
        for url in try files() {
            try FileManager.default.removeItem(at: url)
        }
    }
}
