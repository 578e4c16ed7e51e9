import Foundation

struct Note: Codable, Identifiable {
    var id = UUID()
    var text: String
    var edited: Date
}

final class NotesStore {
    private var fileURL: URL {
        FileManager.default.documentsDirectory.appending(path: "notes.json")
    }

    func load() throws -> [Note] {
        guard FileManager.default.fileExists(atPath: fileURL.path(percentEncoded: false)) else { return [] }
        let data = try Data(contentsOf: fileURL)
        return try JSONDecoder().decode([Note].self, from: data)
    }

    func save(_ notes: [Note]) throws {
        let data = try JSONEncoder().encode(notes)
        try data.write(to: fileURL, options: [.atomic, .completeFileProtection])
    }
}
