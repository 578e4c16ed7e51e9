import Foundation

struct CacheJanitor {
    let folder: URL

    init() {
        folder = URL.cachesDirectory.appending(component: "thumbnails")
    }

    func prepare() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func sizeInBytes() throws -> Int {
        let urls = try FileManager.default.contentsOfDirectory(
            at: folder,
            includingPropertiesForKeys: [.fileSizeKey, .contentModificationDateKey],
            options: [.skipsHiddenFiles]
        )
        return try urls.reduce(0) { total, url in
            let values = try url.resourceValues(forKeys: [.fileSizeKey])
            return total + (values.fileSize ?? 0)
        }
    }

    func removeOlder(than age: TimeInterval) throws {
        let cutoff = Date.now.addingTimeInterval(-age)
        let urls = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey])
        for url in urls {
            let modified = try url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
            if let modified, modified < cutoff {
                try FileManager.default.removeItem(at: url)
            }
        }
    }
}
