import Foundation

struct SystemReport {
    func summary() -> String {
        let info = ProcessInfo.processInfo
        let memory = Int64(info.physicalMemory).formatted(.byteCount(style: .memory))
        let shell = info.environment["SHELL"] ?? "unknown"
        return "\(info.operatingSystemVersionString), \(memory), shell \(shell)"
    }

    func downloadsSize() throws -> Int {
        let downloads = FileManager.default.homeDirectoryForCurrentUser.appending(path: "Downloads")
        let files = try FileManager.default.contentsOfDirectory(
            at: downloads,
            includingPropertiesForKeys: [.fileSizeKey],
            options: .skipsHiddenFiles
        )
        var total = 0
        for file in files {
            let values = try file.resourceValues(forKeys: [.fileSizeKey])
            total += values.fileSize ?? 0
        }
        print("scanned \(downloads.path(percentEncoded: false))")
        return total
    }
}
