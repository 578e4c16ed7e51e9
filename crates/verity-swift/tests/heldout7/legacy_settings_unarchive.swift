import Foundation

final class LegacySettingsMigrator {
    private let defaults = UserDefaults.standard

    func migrateFavorites() -> [String] {
        guard let data = defaults.data(forKey: "favorites.archive") else { return [] }
        let favorites = NSKeyedUnarchiver.unarchiveObject(with: data) as? [String] ?? []
        defaults.set(favorites, forKey: "favorites")
        defaults.removeObject(forKey: "favorites.archive")
        return favorites
    }
}
