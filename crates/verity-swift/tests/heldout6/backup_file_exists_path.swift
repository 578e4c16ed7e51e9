import Foundation

enum BackupLocator {
    static func latestBackup() -> URL? {
        let folder = URL.documentsDirectory.appending(path: "Backups")
        let candidate = folder.appending(path: "latest.sqlite")
        guard FileManager.default.fileExists(atPath: candidate.path) else {
            return nil
        }
        return candidate
    }
}
