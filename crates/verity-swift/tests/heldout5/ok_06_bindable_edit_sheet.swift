import SwiftUI
import Observation

@Observable
final class Habit {
    var name: String
    var goalPerWeek: Int
    var isArchived = false

    init(name: String, goalPerWeek: Int) {
        self.name = name
        self.goalPerWeek = goalPerWeek
    }
}

struct HabitEditor: View {
    @Bindable var habit: Habit
    @Environment(\.dismiss) private var dismiss
    @State private var showsConfirm = false

    var body: some View {
        Form {
            TextField("Name", text: $habit.name)
            Stepper("Goal: \(habit.goalPerWeek) per week", value: $habit.goalPerWeek, in: 1...14)
            Toggle("Archived", isOn: $habit.isArchived)
        }
        .toolbar {
            ToolbarItem(placement: .confirmationAction) {
                Button("Done") { dismiss() }
            }
        }
        .confirmationDialog("Discard?", isPresented: $showsConfirm) {
            Button("Discard", role: .destructive) { dismiss() }
        }
    }
}
