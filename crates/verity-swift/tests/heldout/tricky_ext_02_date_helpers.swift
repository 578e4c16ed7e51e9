import Foundation

extension Date {
    func startOfWeek(using calendar: Calendar = .current) -> Date {
        calendar.dateInterval(of: .weekOfYear, for: self)?.start ?? self
    }

    var isWeekend: Bool {
        Calendar.current.isDateInWeekend(self)
    }

    func adding(days: Int) -> Date {
        Calendar.current.date(byAdding: .day, value: days, to: self) ?? self
    }
}

struct WeekPlanner {
    var anchor: Date = .now

    var days: [Date] {
        let start = anchor.startOfWeek()
        return (0..<7).map { start.adding(days: $0) }
    }

    var workdays: [Date] {
        days.filter { !$0.isWeekend }
    }

    func label(for day: Date) -> String {
        day.formatted(.dateTime.weekday(.abbreviated).day())
    }
}

let planner = WeekPlanner()
print(planner.workdays.map(planner.label(for:)))
