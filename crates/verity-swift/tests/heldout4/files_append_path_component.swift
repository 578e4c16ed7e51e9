import Foundation

struct SettingsFile {
    static func url() -> URL {
        let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        return documents.appendingPathComponent("settings.plist")
    }

    static func write(_ settings: [String: String]) throws {
        let data = try PropertyListEncoder().encode(settings)
        try data.write(to: url())
    }
}
