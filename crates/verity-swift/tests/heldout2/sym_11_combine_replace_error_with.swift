import Combine
import Foundation

struct Todo: Decodable {
    let id: Int
    let title: String
}

final class TodoLoader: ObservableObject {
    @Published var todos: [Todo] = []
    private var cancellables = Set<AnyCancellable>()

    func load() {
        let url = URL(string: "https://jsonplaceholder.typicode.com/todos")!
        URLSession.shared.dataTaskPublisher(for: url)
            .map(\.data)
            .decode(type: [Todo].self, decoder: JSONDecoder())
            .replaceErrorWith([])
            .receive(on: DispatchQueue.main)
            .assign(to: \.todos, on: self)
            .store(in: &cancellables)
    }
}
