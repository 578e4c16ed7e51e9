import Foundation
import SwiftData

@Model
final class Habit {
    var name: String
    var streak: Int
    var archived: Bool

    init(name: String, streak: Int = 0, archived: Bool = false) {
        self.name = name
        self.streak = streak
        self.archived = archived
    }
}

struct HabitStats {
    let context: ModelContext

    func topHabits(limit: Int) throws -> [String] {
        var descriptor = FetchDescriptor<Habit>(
            predicate: #Predicate { !$0.archived },
            sortBy: [SortDescriptor(\.streak, order: .reverse)]
        )
        descriptor.fetchLimit = limit
        let habits = try context.fetch(descriptor)
        return habits.map(\.name)
    }

    func activeCount() throws -> Int {
        try context.fetchCount(FetchDescriptor<Habit>(predicate: #Predicate { !$0.archived }))
    }

    func longestStreak() throws -> Int {
        let all = try context.fetch(FetchDescriptor<Habit>())
        return all.map(\.streak).max() ?? 0
    }
}
