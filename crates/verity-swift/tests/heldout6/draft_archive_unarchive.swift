import Foundation

final class DraftStore {
    private let fileURL: URL

    init(directory: URL) {
        fileURL = directory.appending(path: "drafts.archive")
    }

    func save(_ drafts: [String]) throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: drafts, requiringSecureCoding: false)
        try data.write(to: fileURL, options: .atomic)
    }

    func load() -> [String] {
        guard let data = try? Data(contentsOf: fileURL) else { return [] }
        return NSKeyedUnarchiver.unarchiveObject(with: data) as? [String] ?? []
    }
}
