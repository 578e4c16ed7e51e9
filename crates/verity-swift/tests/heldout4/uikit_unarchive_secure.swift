import UIKit

final class AccentColorStore {
    private let defaults: UserDefaults
    private let key = "accentColor"

    init(defaults: UserDefaults = .standard) {
        self.defaults = defaults
    }

    func save(_ color: UIColor) {
        if let data = try? NSKeyedArchiver.archivedData(withRootObject: color, requiringSecureCoding: true) {
            defaults.set(data, forKey: key)
        }
    }

    func load() -> UIColor {
        guard let data = defaults.data(forKey: key),
              let color = try? NSKeyedUnarchiver.unarchivedObject(ofClass: UIColor.self, from: data) else {
            return .systemBlue
        }
        return color
    }
}
