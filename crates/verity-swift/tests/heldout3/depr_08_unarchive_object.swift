import Foundation

final class LegacyCache {
    private let file: URL

    init(file: URL) {
        self.file = file
    }

    func restore() -> [String]? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return NSKeyedUnarchiver.unarchiveObject(with: data) as? [String]
    }
}
