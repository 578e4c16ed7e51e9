import Foundation

struct CacheFolder {
    let url: URL

    func totalSize() throws -> Int {
        let keys: [URLResourceKey] = [.fileSizeKey, .isDirectoryKey]
        let contents = try FileManager.default.contentsOfDirectory(
            at: url,
            includingPropertiesForKeys: keys,
            options: [.skipsHiddenFiles]
        )
        return try contents.reduce(0) { sum, file in
            let values = try file.resourceValues(forKeys: Set(keys))
            return values.isDirectory == true ? sum : sum + (values.fileSize ?? 0)
        }
    }

    func purge(olderThan days: Int) throws {
        let cutoff = Calendar.current.date(byAdding: .day, value: -days, to: .now) ?? .distantPast
        for file in try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: [.contentModificationDateKey]) {
            let modified = try file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
            if let modified, modified < cutoff {
                try FileManager.default.removeItem(at: file)
            }
        }
    }
}
