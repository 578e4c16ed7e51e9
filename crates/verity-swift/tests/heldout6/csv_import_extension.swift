import Foundation

extension Sequence where Element: Hashable {
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

extension Array {
    func chunked(into size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map {
            Array(self[$0..<Swift.min($0 + size, count)])
        }
    }
}

enum BatchUploader {
    static func batches(of tags: [String]) -> [[String]] {
        tags
            .map { $0.lowercased() }
            .uniqued()
            .chunked(into: 50)
    }
}
