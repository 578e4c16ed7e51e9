import CoreData
import SwiftUI

struct NoteEditor: View {
    @Environment(\.managedObjectContext) private var viewContext
    @ObservedObject var note: NSManagedObject
    @State private var draft = ""

    var body: some View {
        TextEditor(text: $draft)
            .onAppear { draft = note.value(forKey: "body") as? String ?? "" }
            .onDisappear {
                note.setValue(draft, forKey: "body")
                note.setValue(Date(), forKey: "updatedAt")
                viewContext.saveIfNeeded()
            }
    }
}
