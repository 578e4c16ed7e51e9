import Foundation
import os

enum AppInfo {
    private static let logger = Logger(subsystem: "com.example.app", category: "startup")

    static var version: String {
        Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "?"
    }

    static var build: String {
        Bundle.main.infoDictionary?["CFBundleVersion"] as? String ?? "?"
    }

    static func logLaunch(user: String) {
        logger.info("Launch \(version, privacy: .public) (\(build, privacy: .public)) for \(user, privacy: .private)")
        if ProcessInfo.processInfo.isLowPowerModeEnabled {
            logger.notice("Low power mode is on")
        }
    }
}
