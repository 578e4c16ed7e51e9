import Foundation

struct ExportedSettings: Codable {
    var theme: String
    var fontScale: Double
    var syncEnabled: Bool
}

func exportSettings(_ settings: ExportedSettings, to file: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeysAlphabetically]
    let data = try encoder.encode(settings)
    try data.write(to: file, options: .atomic)
}
