import Foundation

func exportURL(for name: String) -> URL {
    URL.documentsDirectory.appending(path: "\(name).csv")
}

func isCSV(_ name: String) -> Bool {
    let ext = exportURL(for: name).fileExtension
    return ext.lowercased() == "csv"
}
