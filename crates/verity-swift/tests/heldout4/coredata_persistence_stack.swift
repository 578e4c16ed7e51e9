import CoreData

final class CDNote: NSManagedObject {
    @NSManaged var title: String?
    @NSManaged var createdAt: Date?
}

final class PersistenceController {
    static let shared = PersistenceController()
    let container: NSPersistentContainer

    init(inMemory: Bool = false) {
        container = NSPersistentContainer(name: "Notes")
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

    func recentNotes(limit: Int) throws -> [CDNote] {
        let request = NSFetchRequest<CDNote>(entityName: "CDNote")
        request.predicate = NSPredicate(format: "title != nil")
        request.sortDescriptors = [NSSortDescriptor(key: "createdAt", ascending: false)]
        request.fetchLimit = limit
        return try container.viewContext.fetch(request)
    }

    func importTitles(_ titles: [String]) {
        let context = container.newBackgroundContext()
        context.perform {
            for title in titles {
                let note = CDNote(context: context)
                note.title = title
                note.createdAt = Date()
            }
            if context.hasChanges {
                try? context.save()
            }
        }
    }
}
