import Foundation

struct DraftStore {
    let folder = URL.documentsDirectory.appending(path: "Drafts", isDirectory: true)

    func save(_ text: String, named name: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: name + ".txt")
        try text.write(to: file, atomically: true, encoding: .utf8)
    }
}
