import Foundation

struct ServerEvent {
    let name: String
    let payload: String
}

final class EventStreamClient {
    func events(from url: URL) -> AsyncThrowingStream<ServerEvent, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let (bytes, response) = try await URLSession.shared.bytes(from: url)
                    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                        throw URLError(.badServerResponse)
                    }
                    for try await line in bytes.lines where line.hasPrefix("data:") {
                        let payload = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
                        continuation.yield(ServerEvent(name: "message", payload: payload))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func watchLowPower() async {
        for await _ in NotificationCenter.default.notifications(named: .NSProcessInfoPowerStateDidChange) {
            print("Low power:", ProcessInfo.processInfo.isLowPowerModeEnabled)
        }
    }
}
