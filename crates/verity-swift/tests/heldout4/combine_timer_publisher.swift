import Foundation
import Combine

final class CountdownModel: ObservableObject {
    @Published var remaining: Int
    private var cancellable: AnyCancellable?

    init(seconds: Int) {
        remaining = seconds
    }

    func start() {
        cancellable = Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .receive(on: RunLoop.main)
            .sink { [weak self] _ in
                guard let self else { return }
                if self.remaining > 0 {
                    self.remaining -= 1
                } else {
                    self.cancellable?.cancel()
                }
            }
    }
}
