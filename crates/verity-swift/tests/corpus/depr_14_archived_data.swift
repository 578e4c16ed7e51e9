import Foundation

func archive(_ names: [String]) -> Data {
    return NSKeyedArchiver.archivedData(withRootObject: names)
}
