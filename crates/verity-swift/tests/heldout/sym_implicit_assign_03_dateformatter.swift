import Foundation

enum Formatters {
    static let receiptDate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateStyle = .mediumLong
        formatter.timeStyle = .short
        return formatter
    }()

    static let amount: NumberFormatter = {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.maximumFractionDigits = 2
        return formatter
    }()
}

struct Receipt {
    let total: Double
    let issuedAt: Date

    var summary: String {
        let amount = Formatters.amount.string(from: NSNumber(value: total)) ?? "-"
        return "\(amount) on \(Formatters.receiptDate.string(from: issuedAt))"
    }
}

print(Receipt(total: 12.5, issuedAt: Date()).summary)
