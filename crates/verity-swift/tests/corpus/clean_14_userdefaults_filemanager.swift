import Foundation

func saveNotes(_ notes: [String]) throws {
    UserDefaults.standard.set(notes.count, forKey: "noteCount")
    let dir = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
    let file = dir.appendingPathComponent("notes.txt")
    try notes.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
    let exists = FileManager.default.fileExists(atPath: file.path)
    NotificationCenter.default.post(name: Notification.Name("notesSaved"), object: nil)
    print(exists, ProcessInfo.processInfo.processorCount, Bundle.main.bundleIdentifier ?? "")
}
