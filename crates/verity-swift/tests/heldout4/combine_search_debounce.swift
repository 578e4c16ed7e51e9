import Foundation
import Combine

final class SearchViewModel: ObservableObject {
    @Published var query = ""
    @Published private(set) var results: [String] = []
    private var cancellables = Set<AnyCancellable>()
    private let catalog: [String]

    init(catalog: [String]) {
        self.catalog = catalog
        $query
            .debounce(for: .milliseconds(300), scheduler: RunLoop.main)
            .removeDuplicates()
            .filter { $0.count >= 2 }
            .sink { [weak self] text in
                guard let self else { return }
                self.results = self.catalog.filter { $0.localizedCaseInsensitiveContains(text) }
            }
            .store(in: &cancellables)
    }
}
