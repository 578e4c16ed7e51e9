import SwiftUI

@MainActor
final class TimerModel: ObservableObject {
    @Published var seconds = 0
    private var task: Task<Void, Never>?

    func start() {
        task = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                seconds += 1
        }
    }

    func stop() {
        task?.cancel()
    }
}
