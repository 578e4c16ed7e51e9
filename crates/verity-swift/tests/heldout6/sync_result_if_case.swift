import Foundation

enum SyncError: Error {
    case offline
    case conflict(serverVersion: Int)
}

struct SyncReport {
    let uploaded: Int
    let downloaded: Int
}

func describe(_ result: Result<SyncReport, SyncError>) -> String {
    if case .success(let report) = result {
        return "Uploaded \(report.uploaded), downloaded \(report.downloaded)"
    }
    if case .failure(.conflict(let version)) = result {
        return "Conflict with server version \(version)"
    }
    switch result {
    case .failure(.offline):
        return "You are offline"
    default:
        let mapped = result.map { $0.uploaded + $0.downloaded }
        return (try? mapped.get()).map { "\($0) changes" } ?? "Unknown"
    }
}
