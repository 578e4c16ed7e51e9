import Foundation

func pause() async throws {
    try await Task.sleep(seconds: 2)
    print("resumed")
}
