import Foundation

final class LegacySettingsMigrator {
    private let defaults = UserDefaults.standard

    func migrate() -> [String: Any]? {
        guard let data = defaults.data(forKey: "legacySettings") else { return nil }
        let settings = NSKeyedUnarchiver.unarchiveObject(with: data) as? [String: Any]
        defaults.removeObject(forKey: "legacySettings")
        if let settings {
            for (key, value) in settings {
                defaults.set(value, forKey: "migrated.\(key)")
            }
        }
        return settings
    }
}
