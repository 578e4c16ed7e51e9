import Foundation
import os

enum LogLevel: Int, Comparable {
    case debug, info, error
    static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

struct AppLogger {
    private let logger = Logger(subsystem: Bundle.main.bundleIdentifier ?? "app", category: "general")
    var minimum: LogLevel = .info

    func log(_ message: String, level: LogLevel = .info) {
        guard level >= minimum else { return }
        switch level {
        case .debug: logger.debug("\(message, privacy: .public)")
        case .info: logger.info("\(message)")
        case .error: logger.error("\(message)")
        }
    }
}

let queue = DispatchQueue(label: "work", qos: .userInitiated)
queue.async {
    let lock = NSLock()
    lock.lock()
    defer { lock.unlock() }
    DispatchQueue.main.async { print("done") }
}
