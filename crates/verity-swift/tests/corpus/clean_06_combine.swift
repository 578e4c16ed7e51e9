import Combine
import Foundation

final class SearchViewModel: ObservableObject {
    @Published var query = ""
    @Published private(set) var results: [String] = []
    private var cancellables = Set<AnyCancellable>()

    init() {
        $query
            .debounce(for: .milliseconds(300), scheduler: RunLoop.main)
            .removeDuplicates()
            .map { $0.lowercased() }
            .sink { [weak self] text in
                self?.results = ["apple", "banana"].filter { $0.hasPrefix(text) }
            }
            .store(in: &cancellables)
    }
}
