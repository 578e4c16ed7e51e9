import Foundation

struct MonthGrid {
    let month: Date
    var calendar = Calendar(identifier: .gregorian)

    var title: String {
        month.formatted(.dateTime.month(.wide).year())
    }

    var dayCount: Int {
        calendar.numberOfDays(in: .month, for: month)
    }

    var leadingBlanks: Int {
        guard let first = calendar.dateInterval(of: .month, for: month)?.start else { return 0 }
        let weekday = calendar.component(.weekday, from: first)
        return (weekday - calendar.firstWeekday + 7) % 7
    }

    var days: [Int?] {
        Array(repeating: nil, count: leadingBlanks) + (1...dayCount).map { Optional($0) }
    }
}

let grid = MonthGrid(month: .now)
print(grid.title, grid.days.count)
