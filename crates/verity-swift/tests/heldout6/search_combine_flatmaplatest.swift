import Combine
import Foundation

struct Suggestion: Decodable {
    let text: String
}

final class SuggestionViewModel: ObservableObject {
    @Published var query = ""
    @Published private(set) var suggestions: [Suggestion] = []
    private var cancellables = Set<AnyCancellable>()

    init() {
        $query
            .removeDuplicates()
            .debounce(for: .milliseconds(250), scheduler: DispatchQueue.main)
            .flatMapLatest { text in
                URLSession.shared.dataTaskPublisher(for: URL(string: "https://api.example.com/suggest?q=\(text)")!)
                    .map(\.data)
                    .decode(type: [Suggestion].self, decoder: JSONDecoder())
                    .replaceError(with: [])
            }
            .receive(on: DispatchQueue.main)
            .assign(to: &$suggestions)
    }
}
