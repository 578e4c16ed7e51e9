import Combine
import Foundation

struct Headline: Decodable {
    let title: String
}

final class HeadlinesModel: ObservableObject {
    @Published private(set) var headlines: [Headline] = []
    private var bag = Set<AnyCancellable>()

    func refresh(from url: URL) {
        URLSession.shared.dataTaskPublisher(for: url)
            .map(\.data)
            .decode(type: [Headline].self, decoder: JSONDecoder())
            .onErrorReturn([])
            .receive(on: DispatchQueue.main)
            .sink { [weak self] items in self?.headlines = items }
            .store(in: &bag)
    }
}
