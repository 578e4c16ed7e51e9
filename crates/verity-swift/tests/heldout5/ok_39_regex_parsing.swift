import Foundation
import RegexBuilder

struct LogLine {
    let level: String
    let code: Int
    let message: String
}

enum LogParser {
    static let pattern = Regex {
        "["
        Capture { OneOrMore(.word) }
        "] "
        TryCapture { OneOrMore(.digit) } transform: { Int($0) }
        ": "
        Capture { OneOrMore(.any) }
    }

    static func parse(_ text: String) -> [LogLine] {
        text.split(separator: "\n").compactMap { line in
            guard let match = line.wholeMatch(of: pattern) else { return nil }
            return LogLine(level: String(match.1), code: match.2, message: String(match.3))
        }
    }

    static func emails(in text: String) -> [String] {
        let email = /([\w.+-]+)@([\w-]+\.[\w.]+)/
        return text.matches(of: email).map { String($0.output.0) }
    }

    static func redact(_ text: String) -> String {
        text.replacing(/\d{4}-\d{4}-\d{4}-\d{4}/, with: "****")
    }
}
