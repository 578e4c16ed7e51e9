import Foundation

struct ExportStore {
    func exportURL(named name: String) -> URL {
        URL.documentsDirectory.appending(path: name)
    }

    func isPDF(_ name: String) -> Bool {
        let ext = URL.documentsDirectory.appending(path: name).fileExtension
        return ext.lowercased() == "pdf"
    }
}
