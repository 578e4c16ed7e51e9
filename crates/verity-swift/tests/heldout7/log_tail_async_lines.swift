import Foundation
import Combine

@MainActor
final class LogViewer: ObservableObject {
    @Published private(set) var errors: [String] = []

    func load(from url: URL) async {
        errors.removeAll()
        do {
            for try await line in url.lines where line.contains("ERROR") {
                errors.append(line)
                if errors.count >= 200 { break }
            }
        } catch {
            errors.append("Failed to read log: \(error.localizedDescription)")
        }
    }
}
