import Foundation

enum ParseError: Error {
    case empty
    case invalidNumber(String)
}

struct CSVParser {
    func parseNumbers(_ line: String) throws(ParseError) -> [Double] {
        guard !line.isEmpty else { throw .empty }
        var values: [Double] = []
        for field in line.split(separator: ",") {
            let trimmed = field.trimmingCharacters(in: .whitespaces)
            guard let value = Double(trimmed) else {
                throw .invalidNumber(trimmed)
            }
            values.append(value)
        }
        return values
    }
}

final class Report {
    var rows: [[Double]] = []
}

actor ReportSink {
    private var reports: [Report] = []

    func accept(_ report: sending Report) {
        reports.append(report)
    }

    var count: Int { reports.count }
}

func buildReport(lines: [String], sink: ReportSink) async {
    let parser = CSVParser()
    let report = Report()
    for line in lines {
        do {
            report.rows.append(try parser.parseNumbers(line))
        } catch ParseError.invalidNumber(let text) {
            print("skipping \(text)")
        } catch {
            continue
        }
    }
    await sink.accept(report)
}
