import Foundation

struct DownloadsFolder {
    let url: URL

    init() throws {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        url = caches.appending(path: "Downloads", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: nil)
    }

    func totalSize() throws -> Int {
        let files = try FileManager.default.contentsOfDirectory(
            at: url,
            includingPropertiesForKeys: [.fileSizeKey],
            options: [.skipsHiddenFiles]
        )
        return try files.reduce(0) { total, file in
            let values = try file.resourceValues(forKeys: [.fileSizeKey])
            return total + (values.fileSize ?? 0)
        }
    }

    func clear() throws {
        for file in try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil) {
            try FileManager.default.removeItem(at: file)
        }
    }
}
