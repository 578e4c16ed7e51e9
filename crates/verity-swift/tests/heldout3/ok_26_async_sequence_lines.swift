import Foundation

struct LogTail {
    let url: URL

    func errorLines(limit: Int) async throws -> [String] {
        var found: [String] = []
        for try await line in url.lines {
            if line.localizedCaseInsensitiveContains("error") {
                found.append(line)
                if found.count == limit { break }
            }
        }
        return found
    }
}
