import Combine
import UIKit

final class SessionTimer: ObservableObject {
    @Published var elapsed = 0
    @Published var isPaused = false
    @Published private(set) var label = ""
    private var cancellables = Set<AnyCancellable>()

    init() {
        Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .sink { [weak self] _ in
                guard let self, !self.isPaused else { return }
                self.elapsed += 1
            }
            .store(in: &cancellables)

        NotificationCenter.default.publisher(for: UIApplication.willResignActiveNotification)
            .sink { [weak self] _ in self?.isPaused = true }
            .store(in: &cancellables)

        Publishers.CombineLatest($elapsed, $isPaused)
            .map { seconds, paused in
                let text = Duration.seconds(seconds).formatted(.time(pattern: .minuteSecond))
                return paused ? "\(text) (paused)" : text
            }
            .removeDuplicates()
            .assign(to: &$label)
    }
}
