import Foundation

extension UserDefaults {
    func codable<T: Decodable>(_ type: T.Type, forKey key: String) -> T? {
        guard let data = data(forKey: key) else { return nil }
        return try? JSONDecoder().decode(T.self, from: data)
    }

    func setCodable<T: Encodable>(_ value: T?, forKey key: String) {
        guard let value, let data = try? JSONEncoder().encode(value) else {
            removeObject(forKey: key)
            return
        }
        set(data, forKey: key)
    }
}

struct Preferences: Codable {
    var theme: String
    var fontSize: Double
}

func loadPreferences() -> Preferences {
    UserDefaults.standard.codable(Preferences.self, forKey: "prefs") ?? Preferences(theme: "system", fontSize: 17)
}
