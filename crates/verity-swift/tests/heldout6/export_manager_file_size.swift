import Foundation

struct ExportManager {
    let exportsFolder = URL.documentsDirectory.appending(path: "Exports", directoryHint: .isDirectory)

    func totalSize() throws -> Int64 {
        let manager = FileManager.default
        let files = try manager.contentsOfDirectory(at: exportsFolder, includingPropertiesForKeys: nil)
        var total: Int64 = 0
        for file in files {
            total += try manager.sizeOfItem(at: file)
        }
        return total
    }
}
