import CoreData
import SwiftUI

final class PersistenceController {
    static let shared = PersistenceController()
    let container: NSPersistentContainer

    init(inMemory: Bool = false) {
        container = NSPersistentContainer(name: "Inventory")
        if inMemory {
            container.persistentStoreDescriptions.first?.url = URL(filePath: "/dev/null")
        }
        container.loadPersistentStores { description, error in
            if let error {
                fatalError("Store \(description.url?.lastPathComponent ?? "?") failed: \(error)")
            }
        }
        container.viewContext.automaticallyMergesChangesFromParent = true
        container.viewContext.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
    }

    func count(entity: String) throws -> Int {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = NSPredicate(format: "quantity > %d", 0)
        return try container.viewContext.count(for: request)
    }

    func saveInBackground(_ changes: @escaping (NSManagedObjectContext) -> Void) {
        container.performBackgroundTask { context in
            changes(context)
            if context.hasChanges {
                try? context.save()
            }
        }
    }
}
