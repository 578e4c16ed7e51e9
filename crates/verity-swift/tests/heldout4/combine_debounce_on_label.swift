import Combine
import Foundation

final class UsernameValidator: ObservableObject {
    @Published var username = ""
    @Published private(set) var isAvailable = false
    private var bag = Set<AnyCancellable>()

    init(taken: Set<String>) {
        $username
            .debounce(for: .seconds(0.5), on: DispatchQueue.main)
            .map { !taken.contains($0.lowercased()) && $0.count > 3 }
            .assign(to: \.isAvailable, on: self)
            .store(in: &bag)
    }
}
