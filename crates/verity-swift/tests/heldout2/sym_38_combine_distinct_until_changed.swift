import Combine
import Foundation

final class UsernameValidator: ObservableObject {
    @Published var username = ""
    @Published private(set) var isAvailable = false
    private var cancellables = Set<AnyCancellable>()

    init(check: @escaping (String) -> AnyPublisher<Bool, Never>) {
        $username
            .debounce(for: .milliseconds(400), scheduler: RunLoop.main)
            .distinctUntilChanged()
            .filter { $0.count >= 3 }
            .flatMap(check)
            .receive(on: DispatchQueue.main)
            .assign(to: &$isAvailable)
    }
}
