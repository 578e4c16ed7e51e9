import Foundation

actor Poller {
    private var isRunning = false

    func start(_ work: @escaping @Sendable () async -> Void) async {
        isRunning = true
        while isRunning {
            await work()
            try? await Task.sleep(seconds: 2)
        }
    }

    func stop() {
        isRunning = false
    }
}
