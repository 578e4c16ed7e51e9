import Foundation
import RegexBuilder

struct ReceiptLine {
    let item: String
    let cents: Int
}

enum ReceiptParser {
    static func parse(_ text: String) -> [ReceiptLine] {
        let pattern = Regex {
            Capture { OneOrMore(.word) }
            OneOrMore(.whitespace)
            TryCapture {
                OneOrMore(.digit)
                "."
                Repeat(.digit, count: 2)
            } transform: { Double($0).map { Int($0 * 100) } }
        }
        return text.split(separator: "\n").compactMap { line in
            guard let match = String(line).firstMatch(of: pattern) else { return nil }
            return ReceiptLine(item: String(match.1), cents: match.2)
        }
    }
}
