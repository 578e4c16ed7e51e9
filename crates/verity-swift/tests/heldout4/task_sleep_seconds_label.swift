import Foundation

actor Poller {
    private var running = false

    func start(every interval: UInt64, check: @Sendable () async -> Bool) async {
        running = true
        while running {
            if await check() {
                running = false
                break
            }
            try? await Task.sleep(seconds: 2)
        }
    }

    func stop() {
        running = false
    }
}
