import SwiftData
import Foundation

@Model
final class Workout {
    var name: String
    var date: Date
    var calories: Int

    init(name: String, date: Date, calories: Int) {
        self.name = name
        self.date = date
        self.calories = calories
    }
}

@MainActor
func recentWorkouts(in context: ModelContext) throws -> [Workout] {
    var descriptor = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.date, order: .reverse)])
    descriptor.limit = 5
    return try context.fetch(descriptor)
}
