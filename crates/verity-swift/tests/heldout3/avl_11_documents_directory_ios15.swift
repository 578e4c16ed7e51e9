import Foundation

enum Backup {
    static func write(_ data: Data) throws -> URL {
        let target = URL.documentsDirectory.appendingPathComponent("backup.json")
        try data.write(to: target, options: .atomic)
        return target
    }
}
