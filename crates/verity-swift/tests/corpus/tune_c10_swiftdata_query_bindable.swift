import SwiftUI
import SwiftData

@Model
final class Task2 {
    var title: String
    var due: Date

    init(title: String, due: Date) {
        self.title = title
        self.due = due
    }
}

struct TaskEditor: View {
    @Bindable var task: Task2

    var body: some View {
        TextField("Title", text: $task.title, axis: .vertical)
        DatePicker("Due", selection: $task.due, displayedComponents: [.date, .hourAndMinute])
    }
}

struct TaskList: View {
    @Environment(\.modelContext) private var context
    @Query(sort: \Task2.due, order: .reverse) private var tasks: [Task2]

    var body: some View {
        List(tasks) { task in
            Text(task.due.formatted(date: .numeric, time: .omitted))
        }
        .toolbar {
            Button("Add") {
                context.insert(Task2(title: "New", due: .now))
                try? context.save()
            }
        }
    }
}
