import Foundation

enum NetworkDiagnostics {
    static func describe(_ session: URLSession = .shared) -> String {
        let configuration = session.configuration
        var lines: [String] = []
        lines.append("timeout: \(configuration.timeoutIntervalForRequest)s")
        lines.append("waits for connectivity: \(configuration.waitsForConnectivity)")
        lines.append("cellular: \(configuration.allowsCellularAccess)")
        lines.append("max concurrent: \(URLSession.shared.configuration.maxConcurrentRequests)")
        if let cache = configuration.urlCache {
            lines.append("cache: \(cache.currentMemoryUsage)/\(cache.memoryCapacity) bytes")
        }
        return lines.joined(separator: "\n")
    }
}

print(NetworkDiagnostics.describe())

func makeBackgroundSession(identifier: String) -> URLSession {
    let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
    configuration.isDiscretionary = true
    configuration.sessionSendsLaunchEvents = true
    return URLSession(configuration: configuration)
}
