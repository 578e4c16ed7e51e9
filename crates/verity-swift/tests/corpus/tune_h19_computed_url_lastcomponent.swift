import Foundation

struct Attachment {
    let name: String

    var fileURL: URL {
        URL.cachesDirectory.appending(path: name)
    }

    var displayName: String {
        fileURL.lastComponent
    }
}
