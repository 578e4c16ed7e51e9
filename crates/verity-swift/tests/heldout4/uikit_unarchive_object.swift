import UIKit

final class ThemeStore {
    private let key = "savedTintColor"

    func save(_ color: UIColor) throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: color, requiringSecureCoding: true)
        UserDefaults.standard.set(data, forKey: key)
    }

    func load() -> UIColor? {
        guard let data = UserDefaults.standard.data(forKey: key) else { return nil }
        return NSKeyedUnarchiver.unarchiveObject(with: data) as? UIColor
    }
}
