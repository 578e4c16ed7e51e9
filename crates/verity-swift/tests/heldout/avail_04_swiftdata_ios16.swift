import SwiftUI
import SwiftData

@Model
final class Habit {
    var name: String
    var streak: Int

    init(name: String, streak: Int = 0) {
        self.name = name
        self.streak = streak
    }
}

@main
struct HabitsApp: App {
    var body: some Scene {
        WindowGroup {
            HabitList()
        }
        .modelContainer(for: Habit.self)
    }
}

struct HabitList: View {
    @Query(sort: \Habit.name) private var habits: [Habit]

    var body: some View {
        List(habits) { habit in
            HStack {
                Text(habit.name)
                Spacer()
                Text("\(habit.streak) days")
                    .foregroundStyle(.secondary)
            }
        }
    }
}
