import SwiftUI
import SwiftData

@Model
final class Habit {
    var name: String
    var streak: Int
    var createdAt: Date

    init(name: String, streak: Int = 0, createdAt: Date = .now) {
        self.name = name
        self.streak = streak
        self.createdAt = createdAt
    }
}

struct HabitListView: View {
    @Environment(\.modelContext) private var modelContext
    @Query(sort: \Habit.createdAt) private var habits: [Habit]

    var body: some View {
        List {
            ForEach(habits) { habit in
                HStack {
                    Text(habit.name)
                    Spacer()
                    Text("\(habit.streak) days").monospacedDigit()
                }
            }
        }
        .toolbar {
            Button("Add", systemImage: "plus") {
                modelContext.insert(Habit(name: "Read 10 pages"))
                try? modelContext.saveChanges()
            }
        }
    }
}
