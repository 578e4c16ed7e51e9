import CoreData

final class CoreDataStack {
    static let shared = CoreDataStack()
    let container: NSPersistentContainer

    private init() {
        container = NSPersistentContainer(name: "Expenses")
        container.loadPersistentStores { _, error in
            if let error { print("store error: \(error.localizedDescription)") }
        }
        container.viewContext.automaticallyMergesChangesFromParent = true
        container.viewContext.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
    }

    func saveInBackground(_ work: @escaping (NSManagedObjectContext) -> Void) {
        container.performBackgroundTask { context in
            work(context)
            if context.hasChanges {
                try? context.save()
            }
        }
    }

    func count(entity: String) throws -> Int {
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: entity)
        return try container.viewContext.count(for: request)
    }
}
