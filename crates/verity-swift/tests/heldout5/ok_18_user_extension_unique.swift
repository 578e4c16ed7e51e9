import Foundation

extension Array where Element: Hashable {
    func unique() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

extension Sequence where Element: AdditiveArithmetic {
    func sum() -> Element {
        reduce(.zero, +)
    }
}

extension String {
    var trimmed: String {
        trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct TagCleaner {
    func clean(_ raw: [String]) -> [String] {
        raw.map(\.trimmed)
            .filter { !$0.isEmpty }
            .map { $0.lowercased() }
            .unique()
    }

    func totalLength(_ tags: [String]) -> Int {
        tags.map(\.count).sum()
    }
}
