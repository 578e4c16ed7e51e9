import Foundation

enum SyncOutcome {
    case synced(Int)
    case offline
    case failed(String)
}

struct SyncEngine {
    let endpoint: URL

    func sync() async -> SyncOutcome {
        do {
            let (data, _) = try await URLSession.shared.data(from: endpoint)
            let items = try JSONSerialization.jsonObject(with: data) as? [Any] ?? []
            return .synced(items.count)
        } catch let error as URLError where error.code == .noInternetConnection {
            return .offline
        } catch let error as URLError {
            switch error.code {
            case .timedOut, .networkConnectionLost:
                return .offline
            default:
                return .failed(error.localizedDescription)
            }
        } catch {
            return .failed(error.localizedDescription)
        }
    }
}
