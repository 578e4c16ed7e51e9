import Foundation

func describe(_ date: Date, locale: Locale = .current) -> String {
    let formatter = DateFormatter()
    formatter.locale = locale
    formatter.dateStyle = .medium
    formatter.timeStyle = .short
    let relative = RelativeDateTimeFormatter()
    relative.unitsStyle = .full
    let ago = relative.localizedString(for: date, relativeTo: Date())
    let iso = date.formatted(.iso8601)
    let short = date.formatted(date: .abbreviated, time: .omitted)
    return "\(formatter.string(from: date)) (\(ago), \(iso), \(short))"
}

let components = Calendar.current.dateComponents([.year, .month], from: Date.now)
let nextWeek = Calendar.current.date(byAdding: .day, value: 7, to: .now)
