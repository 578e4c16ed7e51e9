import Foundation

struct WeeklySummary {
    let calendar = Calendar.current

    func weekRange(containing date: Date) -> ClosedRange<Date> {
        let start = calendar.startOfWeek(for: date)
        let end = calendar.date(byAdding: .day, value: 6, to: start) ?? start
        return start...end
    }

    func daysBetween(_ a: Date, _ b: Date) -> Int {
        calendar.dateComponents([.day], from: calendar.startOfDay(for: a), to: calendar.startOfDay(for: b)).day ?? 0
    }

    func isWeekend(_ date: Date) -> Bool {
        calendar.isDateInWeekend(date)
    }
}
