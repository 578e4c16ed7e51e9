import Foundation

enum SyncError: Error {
    case offline
    case conflict(serverVersion: Int)
}

struct SyncSummary {
    let uploaded: Int
    let downloaded: Int
}

func describe(_ result: Result<SyncSummary, SyncError>) -> String {
    if case .success(let summary) = result {
        return "Synced \(summary.uploaded) up, \(summary.downloaded) down"
    }
    if case .failure(.conflict(let version)) = result {
        return "Conflict with server version \(version)"
    }
    switch result {
    case .failure(let error):
        return "Failed: \(error.localizedDescription)"
    case .success:
        return "Synced"
    }
}

func mapped(_ result: Result<SyncSummary, SyncError>) -> Result<Int, SyncError> {
    result.map { $0.uploaded + $0.downloaded }
}
