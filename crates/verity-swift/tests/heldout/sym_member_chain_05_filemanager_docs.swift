import Foundation

struct DraftStore {
    private let fileManager = FileManager.default

    private var draftsFolder: URL {
        fileManager.documentsDirectory.appending(path: "Drafts", directoryHint: .isDirectory)
    }

    func save(_ text: String, named name: String) throws {
        try fileManager.createDirectory(at: draftsFolder, withIntermediateDirectories: true)
        let url = draftsFolder.appending(path: "\(name).txt")
        try Data(text.utf8).write(to: url, options: .atomic)
    }

    func allDrafts() throws -> [String] {
        try fileManager.contentsOfDirectory(at: draftsFolder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "txt" }
            .map { $0.deletingPathExtension().lastPathComponent }
            .sorted()
    }
}
