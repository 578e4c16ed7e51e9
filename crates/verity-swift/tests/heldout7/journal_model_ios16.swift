import SwiftUI
import SwiftData

@Model
final class JournalEntry {
    var text: String
    var mood: Int
    var date: Date

    init(text: String, mood: Int, date: Date = .now) {
        self.text = text
        self.mood = mood
        self.date = date
    }
}

@main
struct JournalApp: App {
    var body: some Scene {
        WindowGroup {
            Text("Journal")
        }
        .modelContainer(for: JournalEntry.self)
    }
}
