import Foundation

enum Ago {
    static let formatter: RelativeDateTimeFormatter = {
        let f = RelativeDateTimeFormatter()
        f.unitsStyle = .brief
        f.dateTimeStyle = .named
        return f
    }()

    static func text(for date: Date) -> String {
        formatter.localizedString(for: date, relativeTo: .now)
    }
}
