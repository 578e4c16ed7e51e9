import SwiftUI

@MainActor
final class SearchModel: ObservableObject {
    @Published var results: [String] = []
    private var current: Task<Void, Never>?

    func search(_ text: String) {
        current?.cancel()
        current = Task {
            try? await Task.sleep(for: .milliseconds(300))
            guard !Task.isCancelled else { return }
            results = (1...5).map { "\(text) \($0)" }
        }
    }
}
