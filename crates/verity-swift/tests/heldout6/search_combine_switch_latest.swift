import Combine
import Foundation

struct City: Decodable, Identifiable {
    let id: Int
    let name: String
}

final class CitySearch: ObservableObject {
    @Published var term = ""
    @Published private(set) var cities: [City] = []
    @Published private(set) var isLoading = false
    private var bag = Set<AnyCancellable>()

    init(session: URLSession = .shared) {
        $term
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { $0.count >= 2 }
            .removeDuplicates()
            .debounce(for: .seconds(0.3), scheduler: RunLoop.main)
            .handleEvents(receiveOutput: { [weak self] _ in self?.isLoading = true })
            .map { term -> AnyPublisher<[City], Never> in
                var components = URLComponents(string: "https://api.example.com/cities")!
                components.queryItems = [URLQueryItem(name: "q", value: term)]
                return session.dataTaskPublisher(for: components.url!)
                    .map(\.data)
                    .decode(type: [City].self, decoder: JSONDecoder())
                    .replaceError(with: [])
                    .eraseToAnyPublisher()
            }
            .switchToLatest()
            .receive(on: DispatchQueue.main)
            .sink { [weak self] cities in
                self?.cities = cities
                self?.isLoading = false
            }
            .store(in: &bag)
    }
}
