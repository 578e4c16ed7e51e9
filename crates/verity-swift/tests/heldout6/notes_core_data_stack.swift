import CoreData

final class NotesPersistence {
    static let shared = NotesPersistence()
    let container: NSPersistentContainer

    init(inMemory: Bool = false) {
        container = NSPersistentContainer(name: "Notes")
        if inMemory {
            container.persistentStoreDescriptions.first?.url = URL(filePath: "/dev/null")
        }
        container.loadPersistentStores { description, error in
            if let error {
                fatalError("Store \(description.type) failed: \(error.localizedDescription)")
            }
        }
        container.viewContext.automaticallyMergesChangesFromParent = true
        container.viewContext.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
    }

    func purgeOldNotes(before date: Date) {
        container.performBackgroundTask { context in
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
            request.predicate = NSPredicate(format: "createdAt < %@", date as NSDate)
            let delete = NSBatchDeleteRequest(fetchRequest: request)
            delete.resultType = .resultTypeCount
            _ = try? context.execute(delete)
        }
    }

    func saveIfNeeded() {
        let context = container.viewContext
        guard context.hasChanges else { return }
        try? context.save()
    }
}
