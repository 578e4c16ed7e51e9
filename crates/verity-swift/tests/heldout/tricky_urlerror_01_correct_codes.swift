import Foundation
import Combine

enum LoadState: Equatable {
    case idle
    case loaded(Int)
    case offline
    case failed(String)
}

@MainActor
final class FeedLoader: ObservableObject {
    @Published private(set) var state: LoadState = .idle
    private let url = URL(string: "https://example.com/feed.json")!

    func load() async {
        do {
            let (data, response) = try await URLSession.shared.data(from: url)
            guard let http = response as? HTTPURLResponse else {
                state = .failed("Not HTTP")
                return
            }
            switch http.statusCode {
            case 200..<300:
                state = .loaded(data.count)
            case 304:
                break
            default:
                state = .failed(HTTPURLResponse.localizedString(forStatusCode: http.statusCode))
            }
        } catch let error as URLError where error.code == .notConnectedToInternet || error.code == .dataNotAllowed {
            state = .offline
        } catch let error as URLError {
            switch error.code {
            case .timedOut, .networkConnectionLost, .cannotFindHost:
                state = .offline
            case .cancelled:
                state = .idle
            default:
                state = .failed(error.localizedDescription)
            }
        } catch {
            state = .failed(error.localizedDescription)
        }
    }
}
