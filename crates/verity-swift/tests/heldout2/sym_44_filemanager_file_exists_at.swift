import Foundation

struct ModelCache {
    let directory: URL

    func cachedModel(named name: String) -> URL? {
        let url = directory.appending(path: name).appendingPathExtension("mlmodelc")
        return FileManager.default.fileExists(at: url) ? url : nil
    }

    func purge() throws {
        try FileManager.default.removeItem(at: directory)
    }
}
