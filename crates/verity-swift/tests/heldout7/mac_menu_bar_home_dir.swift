import SwiftUI

@main
struct DiskUsageApp: App {
    @State private var summary = "Scanning…"

    var body: some Scene {
        MenuBarExtra("Disk Usage", systemImage: "internaldrive") {
            VStack(alignment: .leading, spacing: 8) {
                Text(summary)
                Button("Rescan") { summary = Self.scanDownloads() }
            }
            .padding()
            .frame(width: 240)
        }
        .menuBarExtraStyle(.window)
    }

    static func scanDownloads() -> String {
        let downloads = FileManager.default.homeDirectoryForCurrentUser.appending(path: "Downloads")
        let urls = (try? FileManager.default.contentsOfDirectory(at: downloads,
                                                                includingPropertiesForKeys: [.fileSizeKey])) ?? []
        let total = urls.reduce(Int64(0)) { sum, url in
            let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
            return sum + Int64(size)
        }
        return "\(urls.count) files, \(total.formatted(.byteCount(style: .file)))"
    }
}
