import Foundation
import RegexBuilder

struct LogEntry {
    let level: String
    let code: Int
    let message: Substring
}

enum LogScanner {
    static let level = Reference(Substring.self)

    static func scan(_ log: String) -> [LogEntry] {
        let regex = Regex {
            "["
            Capture(as: level) { ChoiceOf { "INFO"; "WARN"; "ERROR" } }
            "] "
            TryCapture { OneOrMore(.digit) } transform: { Int($0) }
            ": "
            Capture { OneOrMore(.any, .reluctant) }
            Anchor.endOfLine
        }
        return log.matches(of: regex).map { match in
            LogEntry(level: String(match[level]), code: match.output.2, message: match.output.3)
        }
    }

    static func redact(_ text: String) -> String {
        text.replacing(#/\d{4}-\d{4}-\d{4}-\d{4}/#, with: "****")
    }
}
