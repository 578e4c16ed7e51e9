import Foundation

struct ExportWriter {
    func write(_ csv: String, named name: String) throws -> URL {
        let folder = URL.documentsDirectory.appending(path: "Exports", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediates: true)
        let file = folder.appending(path: "\(name).csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func exportedFiles() throws -> [URL] {
        let folder = URL.documentsDirectory.appending(path: "Exports")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
    }
}
