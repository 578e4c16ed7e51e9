import SwiftUI
import CoreData

struct AddTaskView: View {
    @Environment(\.managedObjectContext) private var viewContext
    @Environment(\.dismiss) private var dismiss
    @State private var title = ""

    var body: some View {
        Form {
            TextField("Title", text: $title)
            Button("Save") {
                let task = NSEntityDescription.insertNewObject(forEntityName: "TaskItem", into: viewContext)
                task.setValue(title, forKey: "title")
                task.setValue(Date(), forKey: "createdAt")
                try? viewContext.saveIfNeeded()
                dismiss()
            }
            .disabled(title.isEmpty)
        }
    }
}
