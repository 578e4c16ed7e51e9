import Foundation

struct ExportedNote: Codable {
    var title: String
    var body: String
    var modifiedAt: Date
    var sourceURL: URL?
}

func exportNotes(_ notes: [ExportedNote], to fileURL: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .secondsSince1970
    let data = try encoder.encode(notes)
    try data.write(to: fileURL, options: .atomic)
}
