import Foundation

struct Note: Codable, Identifiable, Equatable {
    var id = UUID()
    var text: String
    var updated: Date
}

final class NoteStore {
    private let fileURL: URL

    init(filename: String = "notes.json") {
        fileURL = URL.documentsDirectory.appending(path: filename)
    }

    func load() -> [Note] {
        guard let data = try? Data(contentsOf: fileURL) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode([Note].self, from: data)) ?? []
    }

    func save(_ notes: [Note]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(notes).write(to: fileURL, options: [.atomic, .completeFileProtection])
    }
}
