import Foundation
import Combine

final class SearchViewModel: ObservableObject {
    @Published var query = ""
    @Published private(set) var results: [String] = []
    @Published private(set) var isSearching = false

    private var cancellables = Set<AnyCancellable>()
    private let catalog = ["apple", "apricot", "banana", "blueberry", "cherry"]

    init() {
        $query
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .removeDuplicates()
            .debounce(for: .milliseconds(250), scheduler: RunLoop.main)
            .handleEvents(receiveOutput: { [weak self] _ in self?.isSearching = true })
            .map { [catalog] term in term.isEmpty ? [] : catalog.filter { $0.hasPrefix(term) } }
            .receive(on: DispatchQueue.main)
            .sink { [weak self] found in
                self?.results = found
                self?.isSearching = false
            }
            .store(in: &cancellables)

        NotificationCenter.default.publisher(for: .NSCalendarDayChanged)
            .compactMap { $0.object as? Calendar }
            .sink { _ in }
            .store(in: &cancellables)
    }
}
