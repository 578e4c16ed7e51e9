import Foundation

struct Workout {
    let kind: String
    let minutes: Int
    let calories: Double
    let date: Date
}

struct WorkoutStats {
    let workouts: [Workout]

    var longestByKind: [String: Workout] {
        Dictionary(workouts.map { ($0.kind, $0) }) { a, b in
            a.minutes >= b.minutes ? a : b
        }
    }

    var recentTitles: [String] {
        workouts
            .sorted { $0.date > $1.date }
            .prefix(5)
            .map { "\($0.kind) · \($0.minutes) min" }
    }

    var totalCalories: Double {
        workouts.reduce(0) { $0 + $1.calories }
    }

    var minutesPerKind: [String: Int] {
        workouts.reduce(into: [:]) { totals, workout in
            totals[workout.kind, default: 0] += workout.minutes
        }
    }

    func busiestDay(calendar: Calendar = .current) -> Date? {
        Dictionary(grouping: workouts) { calendar.startOfDay(for: $0.date) }
            .max { lhs, rhs in lhs.value.count < rhs.value.count }?
            .key
    }
}
