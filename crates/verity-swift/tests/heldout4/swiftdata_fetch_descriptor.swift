import Foundation
import SwiftData

@Model
final class Workout {
    var name: String
    var durationMinutes: Int
    var date: Date

    init(name: String, durationMinutes: Int, date: Date) {
        self.name = name
        self.durationMinutes = durationMinutes
        self.date = date
    }
}

@MainActor
struct WorkoutRepository {
    let context: ModelContext

    func longWorkouts(minimum: Int) throws -> [Workout] {
        var descriptor = FetchDescriptor<Workout>(
            predicate: #Predicate { $0.durationMinutes >= minimum },
            sortBy: [SortDescriptor(\.date, order: .reverse)]
        )
        descriptor.fetchLimit = 20
        return try context.fetch(descriptor)
    }

    func totalCount() throws -> Int {
        try context.fetchCount(FetchDescriptor<Workout>())
    }

    func saveIfNeeded() throws {
        if context.hasChanges {
            try context.save()
        }
    }
}
