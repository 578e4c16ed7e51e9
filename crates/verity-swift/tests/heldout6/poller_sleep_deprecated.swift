import Foundation

actor StatusPoller {
    private(set) var lastStatus: String = "unknown"
    private var isRunning = false

    func start(url: URL) async {
        isRunning = true
        while isRunning && !Task.isCancelled {
            if let result = try? await URLSession.shared.data(from: url) {
                lastStatus = String(decoding: result.0, as: UTF8.self)
            }
            await Task.sleep(5_000_000_000)
        }
    }

    func stop() {
        isRunning = false
    }
}
