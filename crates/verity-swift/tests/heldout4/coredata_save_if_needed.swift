import SwiftUI
import CoreData

struct TaskEditor: View {
    @Environment(\.managedObjectContext) private var viewContext
    @ObservedObject var task: NSManagedObject
    @State private var name = ""

    var body: some View {
        Form {
            TextField("Name", text: $name)
            Button("Save") {
                task.setValue(name, forKey: "name")
                try? viewContext.saveIfNeeded()
            }
        }
        .onAppear {
            name = task.value(forKey: "name") as? String ?? ""
        }
    }
}
