import Foundation

struct SettingsFile {
    struct Settings: Codable {
        var theme: String
        var fontScale: Double
    }

    static var location: URL {
        URL.documentsDirectory.appending(path: "settings.json")
    }

    static func load() -> Settings {
        guard let data = try? Data(contentsOf: location),
              let settings = try? JSONDecoder().decode(Settings.self, from: data) else {
            return Settings(theme: "system", fontScale: 1)
        }
        return settings
    }

    static func save(_ settings: Settings) throws {
        let data = try JSONEncoder().encode(settings)
        try data.write(to: location, options: .atomic)
    }
}
