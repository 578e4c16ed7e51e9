import Foundation

struct NotesStore {
    private var fileURL: URL {
        FileManager.default.documentsDirectory.appending(path: "notes.json")
    }

    func save(_ notes: [String]) throws {
        let data = try JSONEncoder().encode(notes)
        try data.write(to: fileURL, options: .atomic)
    }

    func load() -> [String] {
        guard let data = try? Data(contentsOf: fileURL) else { return [] }
        return (try? JSONDecoder().decode([String].self, from: data)) ?? []
    }
}
