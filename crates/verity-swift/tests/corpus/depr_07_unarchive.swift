import Foundation

func restore(_ data: Data) -> [String]? {
    return NSKeyedUnarchiver.unarchiveObject(with: data) as? [String]
}
