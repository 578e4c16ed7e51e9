import Foundation

struct ExportFolder {
    let fileManager = FileManager.default
    let basePath: String

    func prepare() throws {
        try fileManager.createDirectory(atPath: basePath, withIntermediateDirectories: true)
        let readme = (basePath as NSString).appendingPathComponent("README.txt")
        if !fileManager.fileExists(atPath: readme) {
            fileManager.createFile(atPath: readme, contents: Data("Exports\n".utf8))
        }
    }

    func files() throws -> [URL] {
        let folder = URL(filePath: basePath, directoryHint: .isDirectory)
        return try fileManager.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.fileSizeKey])
    }

    func totalSize() throws -> Int {
        try files().reduce(0) { total, url in
            let values = try url.resourceValues(forKeys: [.fileSizeKey])
            return total + (values.fileSize ?? 0)
        }
    }

    func removeAll() throws {
        for url in try files() {
            try fileManager.removeItem(at: url)
        }
    }
}
