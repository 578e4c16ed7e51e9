import SwiftData
import Foundation

@Model
final class Trip {
    var name: String
    var start: Date
    init(name: String, start: Date) {
        self.name = name
        self.start = start
    }
}
