import Combine
import Foundation

final class CitySearchModel: ObservableObject {
    @Published var query = ""
    @Published private(set) var cities: [String] = []
    private var cancellables = Set<AnyCancellable>()

    init() {
        $query
            .debounce(for: .milliseconds(300), scheduler: RunLoop.main)
            .removeDuplicates()
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .flatMap { term in
                Self.search(term)
                    .catch { _ in Just([]) }
            }
            .receive(on: DispatchQueue.main)
            .sink { [weak self] cities in
                self?.cities = cities
            }
            .store(in: &cancellables)
    }

    static func search(_ term: String) -> AnyPublisher<[String], Error> {
        var components = URLComponents(string: "https://api.example.com/cities")!
        components.queryItems = [URLQueryItem(name: "q", value: term)]
        return URLSession.shared.dataTaskPublisher(for: components.url!)
            .map(\.data)
            .decode(type: [String].self, decoder: JSONDecoder())
            .eraseToAnyPublisher()
    }
}
