import CoreData

final class PersistenceController {
    let container: NSPersistentContainer

    init() {
        container = NSPersistentContainer(name: "Library")
        container.loadPersistentStores { description, error in
            if let error {
                fatalError("Store failed: \(error)")
            }
            print("Loaded store at \(description.storeURL?.path ?? "?")")
        }
        container.viewContext.automaticallyMergesChangesFromParent = true
    }
}
