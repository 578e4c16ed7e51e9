import Foundation

enum Cache {
    static func clearExports() throws {
        let manager = FileManager.default
        let exports = manager.documentsDirectory.appending(path: "Exports")
        let items = try manager.contentsOfDirectory(at: exports, includingPropertiesForKeys: nil)
        for item in items {
            try manager.removeItem(at: item)
        }
    }
}
