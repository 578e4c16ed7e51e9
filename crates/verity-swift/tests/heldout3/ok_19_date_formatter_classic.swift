import Foundation

enum DisplayDates {
    static let dayFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .none
        return formatter
    }()

    static let durationFormatter: DateComponentsFormatter = {
        let formatter = DateComponentsFormatter()
        formatter.allowedUnits = [.hour, .minute]
        formatter.unitsStyle = .brief
        return formatter
    }()

    static func describe(start: Date, end: Date) -> String {
        let day = dayFormatter.string(from: start)
        let length = durationFormatter.string(from: start, to: end) ?? ""
        return "\(day) · \(length)"
    }
}
