import Foundation

final class ReceiptFormatter {
    let formatter: DateFormatter = DateFormatter()

    init() {
        formatter.dateStyle = .mediumLong
        formatter.timeStyle = .short
    }

    func string(for date: Date) -> String {
        formatter.string(from: date)
    }
}
