import Foundation
import RegexBuilder

struct InvoiceParser {
    private let datePattern = /(\d{4})-(\d{2})-\d{2}/

    private let amountPattern = Regex {
        "Total:"
        OneOrMore(.whitespace)
        TryCapture {
            OneOrMore(.digit)
            Optionally { "."; Repeat(.digit, count: 2) }
        } transform: { Decimal(string: String($0)) }
    }

    func period(in text: String) -> (year: Int, month: Int)? {
        guard let match = text.firstMatch(of: datePattern),
              let year = Int(match.1), let month = Int(match.2) else { return nil }
        return (year, month)
    }

    func totals(in text: String) -> [Decimal] {
        text.matches(of: amountPattern).map { $0.output.1 }
    }

    func redacted(_ text: String) -> String {
        text.replacing(/\d{4}-\d{4}-\d{4}-\d{4}/, with: "**** **** **** ****")
    }
}
