import Foundation

struct Draft: Codable {
    var title: String
    var text: String
}

struct DraftStore {
    private let folder = URL.documentsDirectory.appending(path: "Drafts", directoryHint: .isDirectory)

    func save(_ draft: Draft, named name: String) throws {
        let manager = FileManager.default
        if !manager.fileExists(atPath: folder.path(percentEncoded: false)) {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let data = try JSONEncoder().encode(draft)
        try data.write(to: folder.appending(path: "\(name).json"), options: .atomic)
    }

    func load(named name: String) throws -> Draft {
        let data = try Data(contentsOf: folder.appending(path: "\(name).json"))
        return try JSONDecoder().decode(Draft.self, from: data)
    }
}
